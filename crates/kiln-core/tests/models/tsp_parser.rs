//! TSPLIB and tour-file parsing: every quirk of real files, bad input, distance rounding.

use kiln_core::problems::tsp::{Metric, tour_file, tsplib};

const PUZZLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../puzzles/tsp");

fn read(name: &str) -> String {
    std::fs::read_to_string(format!("{PUZZLES}/{name}")).unwrap()
}

fn error(text: &str) -> String {
    tsplib::parse(text, "x.tsp").unwrap_err().to_string()
}

#[test]
fn both_colon_spacings_blank_lines_leading_spaces_and_no_eof() {
    let text = "NAME: tri\nTYPE : TSP\n\nCOMMENT :  a  triangle \nDIMENSION:3\n\
                EDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n  1 0 0\n\n 2 3 0\n3   0 4\n";
    let inst = tsplib::parse(text, "x.tsp").unwrap();
    assert_eq!(inst.name, "tri");
    assert_eq!(inst.comment, "a  triangle");
    assert_eq!(inst.metric, Metric::Euc2d);
    assert_eq!(inst.len(), 3);
    assert_eq!(inst.tour_length(&[0, 1, 2]), 12);
}

#[test]
fn scientific_notation_and_ids_out_of_order() {
    let text = "NODE_COORD_SECTION\n3 1.5e+01 0.0E0\n1 0 0\n2 2.00000e+02 -1e1\nEOF\n";
    let inst = tsplib::parse(text, "dir/name.tsp").unwrap();
    assert_eq!(inst.name, "name", "without NAME the file stem is used");
    assert_eq!(inst.cities[2].x, 15.0);
    assert_eq!(inst.cities[1].y, -10.0);
}

#[test]
fn duplicate_points_are_fine_and_give_zero_edges() {
    let text = "NODE_COORD_SECTION\n1 5 5\n2 5 5\n3 8 9\n";
    let inst = tsplib::parse(text, "x.tsp").unwrap();
    assert_eq!(inst.tour_length(&[0, 1, 2]), 10);
}

#[test]
fn other_metrics_are_read() {
    for (name, metric) in [
        ("CEIL_2D", Metric::Ceil2d),
        ("ATT", Metric::Att),
        ("GEO", Metric::Geo),
    ] {
        let text = format!("EDGE_WEIGHT_TYPE: {name}\nNODE_COORD_SECTION\n1 0 0\n2 1 1\n3 2 0\n");
        assert_eq!(tsplib::parse(&text, "x.tsp").unwrap().metric, metric);
    }
}

#[test]
fn display_data_after_the_coordinates_is_skipped() {
    let text = "NODE_COORD_SECTION\n1 0 0\n2 1 0\n3 0 1\nDISPLAY_DATA_SECTION\n1 9 9\nEOF\n";
    assert_eq!(tsplib::parse(text, "x.tsp").unwrap().cities[0].x, 0.0);
}

#[test]
fn bad_files_give_one_line_with_file_line_and_problem() {
    assert_eq!(
        error("NAME: m\nTYPE: TSP\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_SECTION\n0 1\n"),
        "x.tsp:3:19: EDGE_WEIGHT_TYPE EXPLICIT (a distance matrix) is not supported: \
         kiln needs city coordinates"
    );
    assert_eq!(
        error("TYPE: ATSP\n"),
        "x.tsp:1:7: TYPE ATSP is not supported (only symmetric TSP)"
    );
    assert_eq!(
        error("DIMENSION: many\n"),
        "x.tsp:1:12: DIMENSION 'many' is not a whole number"
    );
    assert_eq!(
        error("NODE_COORD_SECTION\n1 0 0\n2 x 1\n"),
        "x.tsp:3:3: expected 'id x y', found '2 x 1'"
    );
    assert_eq!(
        error("NODE_COORD_SECTION\n1 0 0\n2 1\n"),
        "x.tsp:3:4: expected 'id x y', found '2 1'"
    );
    assert_eq!(
        error("NODE_COORD_SECTION\n1 0 0\n2 1 1\n2 2 2\n"),
        "x.tsp:4:1: city 2 is given twice (first on line 3)"
    );
    assert_eq!(
        error("NODE_COORD_SECTION\n1 0 0\n2 1 1\n7 2 2\n"),
        "x.tsp:4:1: city id 7 is outside 1..=3"
    );
    assert_eq!(
        error("garbage here\n"),
        "x.tsp:1:1: expected 'KEY : value', found 'garbage here'"
    );
    assert_eq!(
        error("NODE_COORD_SECTION\n1 0 nan\n2 1 1\n3 2 2\n"),
        "x.tsp:2:5: expected 'id x y', found '1 0 nan'"
    );
}

#[test]
fn bad_files_without_a_line() {
    assert_eq!(
        error("NAME: x\n"),
        "x.tsp: no NODE_COORD_SECTION (kiln needs city coordinates)"
    );
    assert_eq!(
        error("NODE_COORD_SECTION\n1 0 0\n2 1 1\n"),
        "x.tsp: 2 cities: a tour needs at least 3"
    );
    assert_eq!(
        error("DIMENSION : 4\nNODE_COORD_SECTION\n1 0 0\n2 1 1\n3 2 2\n"),
        "x.tsp: DIMENSION is 4 but 3 cities are given"
    );
    assert_eq!(
        error(""),
        "x.tsp: no NODE_COORD_SECTION (kiln needs city coordinates)"
    );
}

#[test]
fn shipped_optimal_tours_have_the_published_lengths() {
    // Rounding half up per edge is what makes these exact (berlin52 unrounded: 7544.37).
    let optima: serde_json::Value = serde_json::from_str(&read("optima.json")).unwrap();
    for (name, optimum) in optima["optima"].as_object().unwrap() {
        let inst = tsplib::parse(&read(&format!("{name}.tsp")), name).unwrap();
        assert_eq!(inst.name, *name);
        let tour = tour_file::parse(&read(&format!("{name}.opt.tour")), name, inst.len()).unwrap();
        assert_eq!(Some(inst.tour_length(&tour)), optimum.as_u64(), "{name}");
    }
}

#[test]
fn berlin52_and_pcb442_check_values() {
    let berlin = tsplib::parse(&read("berlin52.tsp"), "berlin52").unwrap();
    let tour = tour_file::parse(&read("berlin52.opt.tour"), "b", 52).unwrap();
    assert_eq!(berlin.tour_length(&tour), 7542);
    // TSPLIB's documented check value: the identity tour of pcb442 (scientific notation).
    let pcb = tsplib::parse(&read("pcb442.tsp"), "pcb442").unwrap();
    let identity: Vec<u32> = (0..442).collect();
    assert_eq!(pcb.tour_length(&identity), 221_440);
}
