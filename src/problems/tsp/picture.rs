//! A tour as a picture, and the best tour as the TSPLIB tour file a headless run writes.

use image::Rgb;

use crate::export::canvas::{BLACK, Canvas, Pen, Surface};
use crate::export::svg::Svg;
use crate::headless::output::Format;
use crate::problems::tsp::{Bounds, Point, TspSnapshot, tour_file};
use kiln_tui::save::Export;

/// Pixels along the longer side of the cities' bounding box.
const LONG_SIDE: f64 = 800.0;
const MARGIN: f64 = 16.0;
const TOUR: Pen = Pen {
    colour: Rgb([30, 80, 200]),
    width: 2,
    dash: None,
};
const REFERENCE: Pen = Pen {
    colour: Rgb([150, 150, 150]),
    width: 2,
    dash: Some(8),
};

/// Maps city coordinates to pixels: the bounding box scaled to fit, y pointing up as on
/// the live board.
struct Frame {
    left: f64,
    top: f64,
    scale: f64,
    width: u32,
    height: u32,
}

impl Frame {
    fn fit(cities: &[Point]) -> Frame {
        let Bounds { low, high } = Bounds::of(cities);
        let (left, right, bottom, top) = (low.x, high.x, low.y, high.y);
        let span = (right - left).max(top - bottom).max(1e-9);
        let scale = (LONG_SIDE - 2.0 * MARGIN) / span;
        let pixels = |length: f64| (length * scale + 2.0 * MARGIN).round() as u32 + 1;
        Frame {
            left,
            top,
            scale,
            width: pixels(right - left),
            height: pixels(top - bottom),
        }
    }

    fn pixel(&self, p: Point) -> (f64, f64) {
        (
            MARGIN + (p.x - self.left) * self.scale,
            MARGIN + (self.top - p.y) * self.scale,
        )
    }
}

/// The tour shown as a picture (with the reference tour, when that is shown) and the best
/// tour as a TSPLIB tour file, named after the instance.
pub fn export(shown: &TspSnapshot, best: &TspSnapshot, reference: Option<&[u32]>) -> Export {
    Export::new("tsp", &best.instance.name)
        .file("png", picture(shown, reference))
        .file("tour", tour(best))
}

/// The tour shown, over the reference tour (dashed grey) when that is shown, with the
/// cities as dots on top, as PNG.
fn picture(shown: &TspSnapshot, reference: Option<&[u32]>) -> Vec<u8> {
    let frame = Frame::fit(&shown.instance.cities);
    let mut canvas = Canvas::new(frame.width, frame.height);
    draw(&mut canvas, &frame, shown, reference);
    canvas.into_png()
}

/// The same picture as SVG.
fn svg(shown: &TspSnapshot, reference: Option<&[u32]>) -> Vec<u8> {
    let frame = Frame::fit(&shown.instance.cities);
    let mut svg = Svg::new(frame.width, frame.height);
    draw(&mut svg, &frame, shown, reference);
    svg.into_bytes()
}

fn draw(surface: &mut impl Surface, frame: &Frame, shown: &TspSnapshot, reference: Option<&[u32]>) {
    let cities = &shown.instance.cities;
    let reference = reference.map(|tour| (tour, REFERENCE));
    for (tour, pen) in reference.into_iter().chain([(&shown.tour[..], TOUR)]) {
        for (i, &a) in tour.iter().enumerate() {
            let b = tour[(i + 1) % tour.len()];
            let (p, q) = (cities[a as usize], cities[b as usize]);
            surface.line(frame.pixel(p), frame.pixel(q), pen);
        }
    }
    let radius = if cities.len() <= 500 { 3.0 } else { 2.0 };
    for &city in cities.iter() {
        surface.disc(frame.pixel(city), radius, BLACK);
    }
}

/// What `--output` writes in `format` for the best tour, the live view's at its end as
/// the headless run's: the tour file, or the picture the save key makes.
pub fn output(best: &TspSnapshot, reference: Option<&[u32]>, format: Format) -> Vec<u8> {
    match format {
        Format::Png => picture(best, reference),
        Format::Svg => svg(best, reference),
        // The only other format `tsp::FORMATS` names.
        _ => tour(best),
    }
}

/// The TSPLIB tour file `--output` writes in a headless run.
pub fn tour(best: &TspSnapshot) -> Vec<u8> {
    let labelled = best.instance.to_labels(&best.tour);
    tour_file::format(&best.instance.name, best.length(), &labelled).into_bytes()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use image::RgbImage;

    use super::*;
    use crate::export::canvas::WHITE;
    use crate::problems::tsp::{Instance, Metric};

    /// Four cities on the corners of a 10x10 square, toured around it.
    fn square() -> TspSnapshot {
        let cities: Vec<Point> = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
            .into_iter()
            .map(|(x, y)| Point { x, y })
            .collect();
        TspSnapshot {
            instance: Arc::new(Instance {
                name: "square".into(),
                comment: String::new(),
                metric: Metric::Euc2d,
                cities: cities.into(),
                labels: None,
            }),
            tour: vec![0, 1, 2, 3],
        }
    }

    fn decode(png: &[u8]) -> RgbImage {
        image::load_from_memory(png).unwrap().to_rgb8()
    }

    #[test]
    fn cities_are_dots_at_the_corners_with_the_tour_between_them() {
        let image = decode(&picture(&square(), None));
        // 10 units over 768 pixels, 16 of margin each side.
        assert_eq!(image.dimensions(), (801, 801));
        // City 1 at (0, 0) is bottom left: y points up.
        assert_eq!(*image.get_pixel(16, 784), BLACK);
        assert_eq!(*image.get_pixel(784, 16), BLACK);
        // The edge from city 1 to city 2 runs along the bottom.
        assert_eq!(*image.get_pixel(400, 784), TOUR.colour);
        assert_eq!(*image.get_pixel(400, 400), WHITE);
        assert_eq!(*image.get_pixel(400, 790), WHITE);
    }

    #[test]
    fn the_reference_is_dashed_grey_beneath_our_tour() {
        // The reference crosses the square; its sides are ours too.
        let image = decode(&picture(&square(), Some(&[0, 2, 1, 3])));
        let near_centre = (394..=406)
            .flat_map(|y| (394..=406).map(move |x| (x, y)))
            .filter(|&(x, y)| *image.get_pixel(x, y) == REFERENCE.colour)
            .count();
        assert!(near_centre > 0, "no reference line through the middle");
        let diagonal: Vec<bool> = (100..200)
            .map(|i| *image.get_pixel(i, 800 - i) == REFERENCE.colour)
            .collect();
        assert!(diagonal.contains(&false), "the reference is dashed");
        assert_eq!(*image.get_pixel(784, 400), TOUR.colour);
    }

    #[test]
    fn one_city_still_makes_a_picture() {
        let mut one = square();
        one.instance = Arc::new(Instance {
            cities: vec![Point { x: 5.0, y: 5.0 }].into(),
            ..(*one.instance).clone()
        });
        one.tour = vec![0];
        let image = decode(&picture(&one, None));
        assert_eq!(image.dimensions(), (33, 33));
        assert_eq!(*image.get_pixel(16, 16), BLACK);
    }

    #[test]
    fn the_picture_is_of_the_tour_shown_and_the_file_of_the_best() {
        let shown = square();
        let mut best = square();
        best.tour = vec![3, 2, 1, 0];
        let export = export(&shown, &best, None);
        assert_eq!(
            export,
            Export::new("tsp", "square")
                .file("png", picture(&shown, None))
                .file("tour", tour(&best))
        );
    }

    #[test]
    fn the_tour_file_reads_back_as_the_tour() {
        let mut best = square();
        best.tour = vec![2, 3, 0, 1];
        let text = String::from_utf8(tour(&best)).unwrap();
        assert!(text.contains("COMMENT : Length 40"), "{text}");
        assert_eq!(tour_file::parse(&text, "t", 4).unwrap(), best.tour);
    }
}
