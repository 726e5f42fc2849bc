//! `kiln plot TRACE... --output FIG.svg|png`: the figure of a report from `--trace` files.
//! Energy (solid) and best energy (dashed) on top, temperature below on a log scale (the
//! schedules are exponential in it), one colour per trace, named by its file.
//!
//! Steps stay linear (a budgeted schedule is laid out over its steps). Energy goes on a log
//! scale when every value is positive and they span a factor of [`LOG_SPAN`] or more (a
//! random first tour against the final one: a linear axis flattens the end of the run);
//! otherwise linear, as for a Sudoku, whose energy reaches 0.

use std::ops::Range;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use color_eyre::eyre::{WrapErr, eyre};
use plotters::coord::Shift;
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use crate::anneal::{Sample, trace};
use crate::input::InputError;
use crate::ui::format::{Si, si};

/// Embedded so a PNG has its text on any machine (plotters' `ab_glyph` reads no system fonts).
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
const FAMILY: &str = "sans-serif";
const SIZE: (u32, u32) = (1000, 800);
/// Data lines are one pixel wide: plotters' bitmap back-end joins wider lines with
/// unlimited miters, so a sharp spike (a Sudoku restart) shot a line across both panels.
const LINE: u32 = 1;
/// Energies spanning this factor or more are drawn on a log scale.
const LOG_SPAN: f64 = 4.0;
/// The most decades the temperature axis spans below its top; lower temperatures are drawn
/// at its floor. plotters counts the decades of a log axis to place its ticks, and a span
/// past `f64::MAX` (1e300 over 1e-300) made that count, and the loop over it, endless.
const MAX_DECADES: i32 = 100;
/// The most labels on the energy's log axis.
const MAX_LOG_TICKS: usize = 12;
/// Colours that stay apart when printed (Tableau 10); traces beyond them cycle.
const COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

#[derive(Args, Debug, Clone)]
pub struct PlotArgs {
    /// Trace files written by `--trace`; each is named in the legend by its file name.
    #[arg(required = true, value_name = "TRACE")]
    pub traces: Vec<PathBuf>,
    /// The figure to write: FILE.svg or FILE.png (required).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// What the horizontal axis counts.
    #[arg(long, value_enum, default_value_t = XAxis::Steps)]
    pub x: XAxis,
}

impl PlotArgs {
    /// What clap cannot check: the figure's file. `--output` is not required by clap, whose
    /// message would come before `Cli::check` names a flag `kiln plot` refuses (and said "a
    /// flag given needs --output" when none was given).
    pub fn check(&self) -> Result<(), InputError> {
        self.output().map(drop)
    }

    /// `--output` and the format its extension names.
    fn output(&self) -> Result<(&Path, Format), InputError> {
        let path = self.output.as_deref().ok_or_else(|| {
            InputError::new(
                "--output",
                "`kiln plot` needs the figure's file, FILE.svg or FILE.png",
            )
        })?;
        Ok((path, format_of(path)?))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum XAxis {
    Steps,
    Seconds,
}

impl XAxis {
    fn of(self, s: &Sample) -> f64 {
        match self {
            XAxis::Steps => s.iteration as f64,
            XAxis::Seconds => s.elapsed.as_secs_f64(),
        }
    }
    fn label(self) -> &'static str {
        match self {
            XAxis::Steps => "steps",
            XAxis::Seconds => "seconds",
        }
    }
}

enum Format {
    Svg,
    Png,
}

/// The figure's format, from the extension of `--output`.
fn format_of(path: &Path) -> Result<Format, InputError> {
    let ext = path.extension().map(|e| e.to_string_lossy().to_lowercase());
    match ext.as_deref() {
        Some("svg") => Ok(Format::Svg),
        Some("png") => Ok(Format::Png),
        _ => Err(InputError::new(
            "--output",
            format!("{}: can write .svg or .png figures only", path.display()),
        )),
    }
}

/// One trace, named for the legend.
pub struct Series {
    pub name: String,
    pub samples: Vec<Sample>,
}

fn load(path: &Path) -> Result<Series, InputError> {
    let text = InputError::read_to_string(path)?;
    let samples = trace::parse(&text, &path.display().to_string())?;
    let name = path.file_stem().unwrap_or_default().to_string_lossy();
    Ok(Series {
        name: name.into_owned(),
        samples,
    })
}

pub fn run(args: &PlotArgs) -> color_eyre::Result<()> {
    let (output, format) = args.output()?;
    let series = args
        .traces
        .iter()
        .map(|p| load(p))
        .collect::<Result<Vec<_>, _>>()?;
    let cannot_write = || format!("{}: cannot write", output.display());
    match format {
        Format::Svg => std::fs::write(output, svg(&series, args.x)?).wrap_err_with(cannot_write),
        Format::Png => {
            let mut pixels = vec![0u8; SIZE.0 as usize * SIZE.1 as usize * 3];
            register_font()?;
            let root = BitMapBackend::with_buffer(&mut pixels, SIZE).into_drawing_area();
            draw(&root, &series, args.x)
                .and_then(|()| root.present())
                .wrap_err("drawing the figure")?;
            drop(root);
            image::save_buffer(
                output,
                &pixels,
                SIZE.0,
                SIZE.1,
                image::ExtendedColorType::Rgb8,
            )
            .wrap_err_with(cannot_write)
        }
    }
}

/// The figure of `series` as SVG text.
pub fn svg(series: &[Series], x: XAxis) -> color_eyre::Result<String> {
    register_font()?;
    let mut text = String::new();
    let root = SVGBackend::with_string(&mut text, SIZE).into_drawing_area();
    draw(&root, series, x)
        .and_then(|()| root.present())
        .wrap_err("drawing the figure")?;
    drop(root);
    Ok(text)
}

fn register_font() -> color_eyre::Result<()> {
    plotters::style::register_font(FAMILY, FontStyle::Normal, FONT)
        .map_err(|_| eyre!("the embedded font does not load"))
}

type Drawn<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    series: &[Series],
    x: XAxis,
) -> Drawn<DB> {
    root.fill(&WHITE)?;
    let panels = root.split_evenly((2, 1));
    let xs = 0.0..padded_max(series.iter().flat_map(|s| &s.samples).map(|s| x.of(s)));
    energy_panel(&panels[0], series, x, xs.clone())?;
    temperature_panel(&panels[1], series, x, xs)
}

fn energy_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    series: &[Series],
    x: XAxis,
    xs: Range<f64>,
) -> Drawn<DB> {
    let energies = series
        .iter()
        .flat_map(|s| &s.samples)
        .flat_map(|s| [s.energy, s.best_energy]);
    let (lo, hi) = bounds(energies);
    let mut builder = ChartBuilder::on(area);
    let chart = builder
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(80);
    if energy_on_log_scale(lo, hi) {
        let (lo, hi) = (lo / 1.05, hi * 1.05);
        let ys = (lo..hi).log_scale().with_key_points(log_ticks(lo, hi));
        let mut chart = chart
            .caption("Energy, log scale (dashed: best so far)", (FAMILY, 22))
            .build_cartesian_2d(xs, ys)?;
        energy_lines(&mut chart, series, x)
    } else {
        let margin = ((hi - lo) * 0.05).max(0.5);
        let mut chart = chart
            .caption("Energy (dashed: best so far)", (FAMILY, 22))
            .build_cartesian_2d(xs, lo - margin..hi + margin)?;
        energy_lines(&mut chart, series, x)
    }
}

/// 1, 2 and 5 times the powers of ten between `lo` and `hi` (both positive): plotters' own
/// log axis labels only the decades' first digits, which leaves a short axis unlabelled.
/// A long axis gets at most [`MAX_LOG_TICKS`] decades instead (energies from 1e-300 to
/// 1e300 made 1800 labels on top of each other).
fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let decades = lo.log10().floor() as i32..=hi.log10().ceil() as i32;
    let within = |t: &f64| (lo..=hi).contains(t);
    let ticks: Vec<f64> = decades
        .clone()
        .flat_map(|d| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(d)))
        .filter(within)
        .collect();
    if ticks.len() <= MAX_LOG_TICKS {
        return ticks;
    }
    let every = decades.clone().count().div_ceil(MAX_LOG_TICKS);
    decades
        .step_by(every)
        .map(|d| 10f64.powi(d))
        .filter(within)
        .collect()
}

/// Positive energies spanning [`LOG_SPAN`] or more read better on a log scale.
fn energy_on_log_scale(lo: f64, hi: f64) -> bool {
    lo > 0.0 && hi >= lo * LOG_SPAN
}

/// The mesh, each trace's energy (solid) and best energy (dashed), and the legend.
fn energy_lines<'a, DB, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<RangedCoordf64, Y>>,
    series: &[Series],
    x: XAxis,
) -> Drawn<DB>
where
    DB: DrawingBackend + 'a,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    chart
        .configure_mesh()
        .x_desc(x.label())
        .y_desc("energy")
        .x_label_formatter(&|v| si(*v, Si::Tick))
        .y_label_formatter(&|v| si(*v, Si::Tick))
        .y_max_light_lines(1)
        .label_style((FAMILY, 15))
        .draw()?;
    let xs = chart.x_range();
    for (i, s) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let points =
            |y: fn(&Sample) -> f64| thinned(s.samples.iter().map(|p| (x.of(p), y(p))), &xs);
        chart
            .draw_series(LineSeries::new(
                points(|p| p.energy),
                colour.stroke_width(LINE),
            ))?
            .label(&s.name)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 24, y)], colour.stroke_width(2)));
        chart.draw_series(DashedLineSeries::new(
            points(|p| p.best_energy),
            8,
            5,
            colour.stroke_width(1),
        ))?;
    }
    draw_legend(chart)
}

fn temperature_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    series: &[Series],
    x: XAxis,
    xs: Range<f64>,
) -> Drawn<DB> {
    let positive = |s: &&Sample| s.temperature > 0.0;
    let temperatures = series.iter().flat_map(|s| &s.samples).filter(positive);
    let (lo, hi) = temperatures.fold((f64::INFINITY, 0.0f64), |(lo, hi), s| {
        (lo.min(s.temperature), hi.max(s.temperature))
    });
    let lo = lo.max(hi * 10f64.powi(-MAX_DECADES));
    // A tenth of a decade keeps the lines off the frame, and the axis reaches out to the
    // powers of ten around them, where a log axis puts its labels: a constant T of 0.3
    // is drawn between 0.1 and 1, not on an axis with no label at all.
    let ys = match lo <= hi {
        true => {
            let margin = 10f64.powf(0.1);
            // Powers of ten beyond f64's normal range would hang the axis.
            let decade = |e: f64| Some(10f64.powf(e)).filter(|d| d.is_normal());
            let below = decade(lo.log10().floor()).map_or(lo / margin, |d| d.min(lo / margin));
            let above = decade(hi.log10().ceil()).map_or(hi * margin, |d| d.max(hi * margin));
            below..above
        }
        false => 0.1..10.0,
    };
    let mut chart = ChartBuilder::on(area)
        .caption("Temperature (log scale)", (FAMILY, 22))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(80)
        .build_cartesian_2d(xs.clone(), ys.log_scale())?;
    chart
        .configure_mesh()
        .x_desc(x.label())
        .y_desc("temperature")
        .x_label_formatter(&|v| si(*v, Si::Tick))
        .y_label_formatter(&|v| format!("{v:.0e}"))
        // Light lines at every 2..9 of a decade crowd a short log axis into a grey band.
        .y_max_light_lines(1)
        .y_labels(6)
        .label_style((FAMILY, 15))
        .draw()?;
    // A temperature that never changes gets its value beside its line: a flat line on a
    // log axis says little by itself.
    if lo <= hi && hi - lo <= hi * 1e-9 {
        let at = (xs.start + (xs.end - xs.start) * 0.02, hi * 10f64.powf(0.04));
        let text = format!("constant T = {}", short_number(hi));
        chart.draw_series(std::iter::once(Text::new(text, at, (FAMILY, 16))))?;
    }
    for (i, s) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let positives = s.samples.iter().filter(positive);
        let points = thinned(positives.map(|p| (x.of(p), p.temperature.max(lo))), &xs);
        chart
            .draw_series(LineSeries::new(points, colour.stroke_width(LINE)))?
            .label(&s.name)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 24, y)], colour.stroke_width(2)));
    }
    draw_legend(&mut chart)
}

/// `points` (in x order) as the figure's pixel columns over `xs` can show them: in each
/// column the first, the lowest, the highest and the last, in their order. Each column
/// spans the same values as with every point, spikes one row wide included (only the
/// paths within a column and the dashes' phase differ), and the SVG grows with the figure's
/// width instead of with the trace's rows (3 million rows made 47 MB).
fn thinned(points: impl Iterator<Item = (f64, f64)>, xs: &Range<f64>) -> Vec<(f64, f64)> {
    let per_unit = f64::from(SIZE.0) / (xs.end - xs.start);
    let column = |x: f64| ((x - xs.start) * per_unit) as u32;
    let mut kept = Vec::new();
    let mut run: Option<(u32, Extremes)> = None;
    for (i, p) in points.enumerate() {
        match &mut run {
            Some((c, extremes)) if *c == column(p.0) => extremes.add(i, p),
            _ => {
                if let Some((_, extremes)) = run.replace((column(p.0), Extremes::new(i, p))) {
                    extremes.push_to(&mut kept);
                }
            }
        }
    }
    if let Some((_, extremes)) = run {
        extremes.push_to(&mut kept);
    }
    kept
}

/// The first, lowest, highest and last point of a run of points, each with its place in
/// the line.
struct Extremes([(usize, (f64, f64)); 4]);

impl Extremes {
    fn new(i: usize, p: (f64, f64)) -> Self {
        Extremes([(i, p); 4])
    }

    fn add(&mut self, i: usize, p: (f64, f64)) {
        let [_, lowest, highest, last] = &mut self.0;
        if p.1 < lowest.1.1 {
            *lowest = (i, p);
        }
        if p.1 > highest.1.1 {
            *highest = (i, p);
        }
        *last = (i, p);
    }

    /// Pushes the points in the line's order, each once.
    fn push_to(mut self, kept: &mut Vec<(f64, f64)>) {
        self.0.sort_unstable_by_key(|(i, _)| *i);
        let mut previous = None;
        for (i, p) in self.0 {
            if previous != Some(i) {
                kept.push(p);
                previous = Some(i);
            }
        }
    }
}

/// The legend both panels draw: one entry per trace, named by its file, at the top right.
fn draw_legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
) -> Drawn<DB> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font((FAMILY, 16))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
}

/// The largest value with a little room above it (at least a little above 0).
fn padded_max(values: impl Iterator<Item = f64>) -> f64 {
    let max = values.fold(0.0, f64::max);
    if max > 0.0 { max * 1.02 } else { 1.0 }
}

/// The smallest and the largest of `values`.
fn bounds(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    })
}

/// A temperature as a person would write it: 0.3, 1.5e-5, 120.
fn short_number(t: f64) -> String {
    let shown = format!("{t:.4}");
    match (0.001..1e6).contains(&t.abs()) {
        true => shown
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string(),
        false => format!("{t:.3e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn energy_goes_on_a_log_scale_only_when_positive_and_spread() {
        assert!(
            energy_on_log_scale(8_000.0, 60_000.0),
            "a random first tour"
        );
        assert!(
            !energy_on_log_scale(7_542.0, 9_000.0),
            "a greedy first tour"
        );
        assert!(!energy_on_log_scale(0.0, 40.0), "a Sudoku reaches 0");
        assert!(
            !energy_on_log_scale(-1416.0, 1457.0),
            "pattern energies go negative"
        );
    }

    #[test]
    fn log_ticks_are_one_two_five() {
        assert_eq!(
            log_ticks(30_000.0, 330_000.0),
            [50_000.0, 100_000.0, 200_000.0]
        );
        assert_eq!(log_ticks(0.9, 11.0), [1.0, 2.0, 5.0, 10.0]);
        assert_eq!(log_ticks(0.5, 2e5), [1.0, 10.0, 100.0, 1e3, 1e4, 1e5]);
        assert!(log_ticks(1e-300, 1e300).len() <= MAX_LOG_TICKS);
    }

    #[test]
    fn thinning_keeps_four_points_a_column_and_every_spike() {
        let n = 1_000_000;
        let y = |i: usize| match i {
            500_001 => 1e9,
            700_003 => -1e9,
            _ => (i % 7) as f64,
        };
        let xs = 0.0..n as f64;
        let kept = thinned((0..n).map(|i| (i as f64, y(i))), &xs);
        assert!(kept.len() <= 4 * SIZE.0 as usize, "{} points", kept.len());
        assert_eq!(kept[0], (0.0, 0.0));
        assert_eq!(*kept.last().unwrap(), ((n - 1) as f64, y(n - 1)));
        assert!(kept.contains(&(500_001.0, 1e9)) && kept.contains(&(700_003.0, -1e9)));
        assert!(
            kept.windows(2).all(|w| w[0].0 < w[1].0),
            "in order, once each"
        );
        // Every column keeps its range of values, 0 to 6.
        let mut ranges = vec![(f64::INFINITY, f64::NEG_INFINITY); SIZE.0 as usize];
        for &(x, y) in &kept {
            let range = &mut ranges[(x * f64::from(SIZE.0) / xs.end) as usize];
            *range = (range.0.min(y), range.1.max(y));
        }
        assert!(ranges.iter().all(|&(lo, hi)| lo <= 0.0 && hi >= 6.0));
        // A line shorter than the columns is kept whole.
        let few: Vec<_> = (0..10).map(|i| (i as f64 * 100.0, y(i))).collect();
        assert_eq!(thinned(few.iter().copied(), &(0.0..1000.0)), few);
    }

    #[test]
    fn only_svg_and_png_are_written() {
        assert!(matches!(format_of(Path::new("a.SVG")), Ok(Format::Svg)));
        assert!(matches!(format_of(Path::new("a.png")), Ok(Format::Png)));
        let e = format_of(Path::new("a.jpg")).err().expect("refused");
        assert_eq!(
            e.to_string(),
            "--output: a.jpg: can write .svg or .png figures only"
        );
    }
}
