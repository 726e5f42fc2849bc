//! `kiln plot TRACE... --output FIG.svg|png`: the figure of a report from `--trace` files.
//! Energy (solid) and best energy (dashed) on top, temperature below on a log scale (the
//! schedules are exponential in it), one colour per trace and a dot where each run ended,
//! each named by its file without the part all the files share (that part heads the
//! figure). Traces whose temperatures coincide (one schedule) share one grey line named
//! after all of them, "(same T)". Traces with no temperature at all (other solvers'
//! results) get the energy panel alone.
//!
//! Time (steps or seconds) is linear, as a budgeted schedule is laid out, unless the runs'
//! lengths span a decade or more ([`Axis::for_runs`]). Energy goes on a log scale when every value is
//! positive and they span a factor of [`LOG_SPAN`] or more (a random first tour against the
//! final one: a linear axis flattens the end of the run); otherwise linear, as for a
//! Sudoku, whose energy reaches 0.
//!
//! Given images instead of traces, it draws them side by side ([`image_figure`]).

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use color_eyre::eyre::WrapErr;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

mod image_figure;

use crate::Named;
use crate::export::axis::Axis;
use crate::export::figure::{Drawn, FAMILY, register_font};
use crate::export::{legend, overlap};
use crate::input::InputError;
use crate::problems::image::file;
use crate::search::{Control, Sample, trace};
use image_figure::Picture;

const SIZE: (u32, u32) = (1000, 800);
/// Data lines are one pixel wide: plotters' bitmap back-end joins wider lines with
/// unlimited miters, so a sharp spike (a Sudoku restart) shot a line across both panels.
const LINE: u32 = 1;
/// The radius of the dot at the end of each run.
const END_DOT: u32 = 5;
/// About how large a panel's plot is and how a legend's parts are, in pixels, to find the
/// legend a place: its line and margins, a character of its names, and an entry's height.
const PLOT_PIXELS: (f64, f64) = (896.0, 300.0);
const LEGEND_LINE_PIXELS: f64 = 60.0;
const LEGEND_CHAR_PIXELS: f64 = 9.0;
const LEGEND_ENTRY_PIXELS: f64 = 21.0;
/// Energies spanning this factor or more are drawn on a log scale.
const LOG_SPAN: f64 = 4.0;
/// The most decades the temperature axis spans below its top; lower temperatures are drawn
/// at its floor. plotters counts the decades of a log axis to place its ticks, and a span
/// past `f64::MAX` (1e300 over 1e-300) made that count, and the loop over it, endless.
const MAX_DECADES: i32 = 100;
/// Colours that stay apart when printed (Tableau 10); traces beyond them cycle.
const COLOURS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];
/// The one line drawn for traces whose temperatures coincide: none of their colours.
const SHARED: RGBColor = RGBColor(70, 70, 70);

/// What one `kiln plot` draws and where, as its command line asked for it, read once at
/// the edge (`PlotArgs::spec`).
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    /// Trace files written by `--trace`, or images (.pbm, .png) to draw side by side.
    pub traces: Vec<PathBuf>,
    /// The figure's file.
    pub output: PathBuf,
    /// The figure's format, which the extension of `output` names.
    pub format: Format,
    /// What the horizontal axis counts.
    pub x: XAxis,
}

/// What the horizontal axis counts, named as `--x` takes it and as the axis says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum XAxis {
    /// Steps of the run.
    Steps,
    /// Seconds since the run began.
    Seconds,
}

impl Named for XAxis {
    const ALL: &'static [Self] = &[XAxis::Steps, XAxis::Seconds];
    fn name(self) -> &'static str {
        match self {
            XAxis::Steps => "steps",
            XAxis::Seconds => "seconds",
        }
    }
}

impl XAxis {
    fn of(self, s: &Sample) -> f64 {
        match self {
            XAxis::Steps => s.iteration as f64,
            XAxis::Seconds => s.elapsed.as_secs_f64(),
        }
    }
}

/// The formats a figure is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// SVG.
    Svg,
    /// PNG.
    Png,
}

/// The figure's format, from the extension of `--output`.
pub fn format_of(path: &Path) -> Result<Format, InputError> {
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
#[derive(Clone)]
pub struct Series {
    /// The legend's name for it (the file's, or the pane's).
    pub name: String,
    /// Its rows, in step order.
    pub samples: Vec<Sample>,
}

/// What one `kiln plot` draws: traces, or images.
enum Figure<'a> {
    Traces(Cow<'a, [Series]>),
    Images(Vec<Picture>),
}

impl Figure<'_> {
    /// The files, all traces or all images (by extension), named by their file names.
    fn load(paths: &[PathBuf]) -> Result<Self, InputError> {
        let named = |path: &Path| {
            path.file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned()
        };
        let images = paths.iter().filter(|p| image_figure::is_image(p)).count();
        if images == 0 {
            let series = paths.iter().map(|path| {
                let text = InputError::read_to_string(path)?;
                let samples = trace::parse(&text, &path.display().to_string())?;
                Ok(Series {
                    name: named(path),
                    samples,
                })
            });
            let series: Vec<Series> = series.collect::<Result<_, InputError>>()?;
            return Ok(Figure::Traces(series.into()));
        }
        if let Some(trace) = paths.iter().find(|p| !image_figure::is_image(p)) {
            return Err(InputError::new(
                trace.display().to_string(),
                "a trace among images (.pbm, .png): a figure draws traces or images, not both",
            ));
        }
        let pictures = paths.iter().map(|path| {
            Ok(Picture {
                name: named(path),
                image: file::load(path)?,
            })
        });
        let mut pictures: Vec<Picture> = pictures.collect::<Result<_, InputError>>()?;
        let (_, names) = legend_names(pictures.iter().map(|p| p.name.as_str()));
        for (picture, name) in pictures.iter_mut().zip(names) {
            picture.name = name;
        }
        Ok(Figure::Images(pictures))
    }

    fn size(&self) -> (u32, u32) {
        match self {
            Figure::Traces(_) => SIZE,
            Figure::Images(pictures) => image_figure::size(pictures),
        }
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, x: XAxis) -> Drawn<DB> {
        match self {
            Figure::Traces(series) => draw(root, series, x),
            Figure::Images(pictures) => image_figure::draw(root, pictures),
        }
    }

    /// The figure as SVG text.
    fn svg(&self, x: XAxis) -> color_eyre::Result<String> {
        register_font()?;
        let mut text = String::new();
        let root = SVGBackend::with_string(&mut text, self.size()).into_drawing_area();
        self.draw(&root, x)
            .and_then(|()| root.present())
            .wrap_err("drawing the figure")?;
        drop(root);
        Ok(text)
    }

    /// The figure as PNG bytes.
    fn png(&self, x: XAxis) -> color_eyre::Result<Vec<u8>> {
        register_font()?;
        let (width, height) = self.size();
        let mut pixels = vec![0u8; width as usize * height as usize * 3];
        let root = BitMapBackend::with_buffer(&mut pixels, (width, height)).into_drawing_area();
        self.draw(&root, x)
            .and_then(|()| root.present())
            .wrap_err("drawing the figure")?;
        drop(root);
        let picture = image::RgbImage::from_raw(width, height, pixels)
            .expect("the buffer holds the figure's pixels");
        let mut bytes = Vec::new();
        picture.write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )?;
        Ok(bytes)
    }
}

/// Draws the figure `spec` asks for into its file.
pub fn run(spec: &Spec) -> color_eyre::Result<()> {
    let figure = Figure::load(&spec.traces)?;
    let bytes = match spec.format {
        Format::Svg => figure.svg(spec.x)?.into_bytes(),
        Format::Png => figure.png(spec.x)?,
    };
    let output = &spec.output;
    std::fs::write(output, bytes).wrap_err_with(|| format!("{}: cannot write", output.display()))
}

/// The figure of `series` as SVG text.
pub fn svg(series: &[Series], x: XAxis) -> color_eyre::Result<String> {
    Figure::Traces(Cow::Borrowed(series)).svg(x)
}

/// What both panels share: the time axis, the traces' names in the legends and the part of
/// their file names they all share.
struct Layout {
    x: XAxis,
    xs: Axis,
    names: Vec<String>,
    heading: String,
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    series: &[Series],
    x: XAxis,
) -> Drawn<DB> {
    root.fill(&WHITE)?;
    let ends: Vec<f64> = series
        .iter()
        .map(|s| s.samples.last().map_or(0.0, |p| x.of(p)))
        .collect();
    let first = series
        .iter()
        .flat_map(|s| &s.samples)
        .map(|p| x.of(p))
        .filter(|&t| t > 0.0)
        .fold(f64::INFINITY, f64::min);
    let (shared, names) = legend_names(series.iter().map(|s| s.name.as_str()));
    let layout = Layout {
        x,
        xs: Axis::for_runs(&ends, first),
        names,
        heading: shared.map_or(String::new(), |s| format!("{s}: ")),
    };
    // Traces of other solvers' results (written as traces by hand or a script) have no
    // temperature: an empty panel would only take half the figure.
    let cooled = series
        .iter()
        .flat_map(|s| &s.samples)
        .any(|p| p.control.level() > 0.0);
    if !cooled {
        return energy_panel(root, series, &layout);
    }
    let panels = root.split_evenly((2, 1));
    energy_panel(&panels[0], series, &layout)?;
    temperature_panel(&panels[1], series, &layout)
}

/// The legend's names: the file names without the start they all share up to a `-`, `_` or
/// `.` ("top95-kiln", "top95-ga": "kiln", "ga"), and that start without its separator,
/// when there is one and it leaves every name something.
fn legend_names<'a>(names: impl Iterator<Item = &'a str>) -> (Option<String>, Vec<String>) {
    let names: Vec<&str> = names.collect();
    let whole = || names.iter().map(|n| n.to_string()).collect();
    let [first, rest @ ..] = names.as_slice() else {
        return (None, whole());
    };
    if rest.is_empty() {
        return (None, whole());
    }
    let common = rest.iter().fold(first.len(), |len, name| {
        first
            .bytes()
            .zip(name.bytes())
            .take(len)
            .take_while(|(a, b)| a == b)
            .count()
    });
    let cut = first[..common].rfind(['-', '_', '.']);
    match cut {
        Some(cut) if names.iter().all(|n| n.len() > cut + 1) => (
            Some(first[..cut].to_string()),
            names.iter().map(|n| n[cut + 1..].to_string()).collect(),
        ),
        _ => (None, whole()),
    }
}

fn energy_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    series: &[Series],
    layout: &Layout,
) -> Drawn<DB> {
    let energies = series
        .iter()
        .flat_map(|s| &s.samples)
        .flat_map(|s| [s.energy, s.best_energy]);
    let (lo, hi) = bounds(energies);
    let (ys, scale) = match energy_on_log_scale(lo, hi) {
        true => (Axis::log(lo / 1.05..hi * 1.05), ", log scale"),
        false => {
            let margin = ((hi - lo) * 0.05).max(0.5);
            (Axis::linear(lo - margin..hi + margin), "")
        }
    };
    let caption = format!(
        "{}Energy{scale} (dashed: best so far; dot: result; dotted: next phase)",
        layout.heading
    );
    let mut chart = ChartBuilder::on(area)
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(80)
        .caption(caption, (FAMILY, 22))
        .build_cartesian_2d(layout.xs.clone(), ys)?;
    energy_lines(&mut chart, series, layout)
}

/// Positive energies spanning [`LOG_SPAN`] or more read better on a log scale.
fn energy_on_log_scale(lo: f64, hi: f64) -> bool {
    lo > 0.0 && hi >= lo * LOG_SPAN
}

type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<Axis, Axis>>;

/// The mesh: the axes' names, the time's with its scale.
fn mesh<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    layout: &Layout,
    what: &str,
) -> Drawn<DB> {
    let time = match layout.xs.is_log() {
        true => format!("{} (log scale)", layout.x.name()),
        false => layout.x.name().to_string(),
    };
    chart
        .configure_mesh()
        .x_desc(time)
        .y_desc(what)
        // Light lines at every 2..9 of a decade crowd a short log axis into a grey band.
        .y_max_light_lines(1)
        .label_style((FAMILY, 15))
        .draw()
}

/// A legend entry's line in `colour`.
fn legend_line(colour: RGBColor) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    move |(x, y)| PathElement::new([(x, y), (x + 24, y)], colour.stroke_width(2))
}

/// The mesh, each trace's energy (solid) and best energy (dashed), and the legend.
fn energy_lines<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    series: &[Series],
    layout: &Layout,
) -> Drawn<DB> {
    mesh(chart, layout, "energy")?;
    let x = layout.x;
    let mut drawn = Vec::new();
    for (i, s) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let points =
            |y: fn(&Sample) -> f64| thinned(s.samples.iter().map(|p| (x.of(p), y(p))), &layout.xs);
        let (energy, best) = (points(|p| p.energy), points(|p| p.best_energy));
        chart
            .draw_series(LineSeries::new(
                energy.iter().copied(),
                colour.stroke_width(LINE),
            ))?
            .label(&layout.names[i])
            .legend(legend_line(colour));
        chart.draw_series(DashedLineSeries::new(
            best.iter().copied(),
            8,
            5,
            colour.stroke_width(1),
        ))?;
        phase_boundaries(chart, s, (x, &layout.xs), colour)?;
        // Where each run stopped, at its result (the best it found): in a race the story
        // is who got where first, and the end of a short run is otherwise lost among the
        // others' lines.
        if let Some(end) = s.samples.last() {
            let end = (x.of(end), end.best_energy);
            let dot = Circle::new(end, END_DOT, colour.filled());
            chart.draw_series(std::iter::once(dot))?;
            drawn.push(vec![end]);
        }
        drawn.extend([energy, best]);
    }
    draw_legend(chart, &drawn, &layout.names)
}

/// A dotted line where a run's next phase begins (the local search after the anneal),
/// named at the top of the panel.
fn phase_boundaries<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    s: &Series,
    (x, xs): (XAxis, &Axis),
    colour: RGBColor,
) -> Drawn<DB> {
    let ys = chart.y_range();
    for pair in s.samples.windows(2) {
        if pair[0].phase == pair[1].phase {
            continue;
        }
        let at = x.of(&pair[1]);
        chart.draw_series(DashedLineSeries::new(
            [(at, ys.start), (at, ys.end)],
            2,
            4,
            colour.stroke_width(1),
        ))?;
        // Right of its line, or left of it in the plot's right half, so that a phase
        // starting near the end is named whole.
        let style = (FAMILY, 14).into_font().color(&colour);
        let (text, style) = match xs.fraction(at) > 0.5 {
            true => (
                format!("{} ", pair[1].phase.name()),
                style.pos(Pos::new(HPos::Right, VPos::Top)),
            ),
            false => (format!(" {}", pair[1].phase.name()), style),
        };
        let name = Text::new(text, (at, ys.end), style);
        chart.draw_series(std::iter::once(name))?;
    }
    Ok(())
}

fn temperature_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    series: &[Series],
    layout: &Layout,
) -> Drawn<DB> {
    let temperatures = series.iter().flat_map(|s| &s.samples).filter(steered);
    let (lo, hi) = temperatures.fold((f64::INFINITY, 0.0f64), |(lo, hi), s| {
        (lo.min(s.control.level()), hi.max(s.control.level()))
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
    // A local search has a threshold where annealing has a temperature.
    let thresholds = series
        .iter()
        .flat_map(|s| &s.samples)
        .any(|s| matches!(s.control, Control::Threshold(_)));
    let caption = match thresholds {
        true => "Temperature, then threshold (log scale)",
        false => "Temperature (log scale)",
    };
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FAMILY, 22))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(80)
        .build_cartesian_2d(layout.xs.clone(), Axis::log(ys))?;
    mesh(&mut chart, layout, "temperature")?;
    // A temperature that never changes gets its value beside its line: a flat line on a
    // log axis says little by itself.
    if lo <= hi && hi - lo <= hi * 1e-9 {
        let xs = layout.xs.range();
        let left = match layout.xs.is_log() {
            true => xs.start * (xs.end / xs.start).powf(0.02),
            false => xs.start + (xs.end - xs.start) * 0.02,
        };
        let text = format!("constant T = {}", short_number(hi));
        let at = (left, hi * 10f64.powf(0.04));
        chart.draw_series(std::iter::once(Text::new(text, at, (FAMILY, 16))))?;
    }
    let x = layout.x;
    let lines: Vec<Vec<(f64, f64)>> = series.iter().map(|s| control_line(s, x, lo)).collect();
    for (i, s) in series.iter().enumerate() {
        phase_boundaries(&mut chart, s, (x, &layout.xs), COLOURS[i % COLOURS.len()])?;
    }
    let (mut drawn, mut names) = (Vec::new(), Vec::new());
    for group in overlap::groups(&lines) {
        let (colour, name) = match group.as_slice() {
            [one] => (COLOURS[one % COLOURS.len()], layout.names[*one].clone()),
            many => {
                let names: Vec<&str> = many.iter().map(|&i| layout.names[i].as_str()).collect();
                (SHARED, format!("{} (same T)", names.join(", ")))
            }
        };
        let points = thinned(lines[group[0]].iter().copied(), &layout.xs);
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                colour.stroke_width(LINE),
            ))?
            .label(&name)
            .legend(legend_line(colour));
        drawn.push(points);
        names.push(name);
    }
    draw_legend(&mut chart, &drawn, &names)
}

/// The points of `series`' temperature line (or the threshold standing in for it), none
/// below `lo`: only samples whose search has such a number above 0, so a phase without
/// one (conflict learning, an exact polish) draws nothing rather than a 0.
fn control_line(series: &Series, x: XAxis, lo: f64) -> Vec<(f64, f64)> {
    let steered = series.samples.iter().filter(steered);
    steered
        .map(|p| (x.of(p), p.control.level().max(lo)))
        .collect()
}

/// Whether a sample's search has a temperature (or a stand-in) above 0 to draw.
fn steered(s: &&Sample) -> bool {
    s.control.level() > 0.0
}

/// `points` (in x order) as the figure's pixel columns along `xs` can show them: in each
/// column the first, the lowest, the highest and the last, in their order. Each column
/// spans the same values as with every point, spikes one row wide included (only the
/// paths within a column and the dashes' phase differ), and the SVG grows with the figure's
/// width instead of with the trace's rows (3 million rows made 47 MB).
fn thinned(points: impl Iterator<Item = (f64, f64)>, xs: &Axis) -> Vec<(f64, f64)> {
    let column = |x: f64| (xs.fraction(x) * f64::from(SIZE.0)) as i32;
    let mut kept = Vec::new();
    let mut run: Option<(i32, Extremes)> = None;
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

/// The legend both panels draw, one entry per name, where it hides least of the `drawn`
/// lines.
fn draw_legend<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    drawn: &[Vec<(f64, f64)>],
    names: &[String],
) -> Drawn<DB> {
    let axes = chart.as_coord_spec();
    let (x_axis, y_axis) = (axes.x_spec(), axes.y_spec());
    let within: Vec<Vec<(f64, f64)>> = drawn
        .iter()
        .map(|line| {
            let fraction = |&(x, y): &(f64, f64)| (x_axis.fraction(x), y_axis.fraction(y));
            line.iter().map(fraction).collect()
        })
        .collect();
    let widest = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    let size = (
        (LEGEND_LINE_PIXELS + LEGEND_CHAR_PIXELS * widest as f64) / PLOT_PIXELS.0,
        (LEGEND_ENTRY_PIXELS * (names.len() as f64 + 0.5)) / PLOT_PIXELS.1,
    );
    chart
        .configure_series_labels()
        .position(legend::place(&within, size))
        .label_font((FAMILY, 16))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
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
    fn thinning_keeps_four_points_a_column_and_every_spike() {
        let n = 1_000_000;
        let y = |i: usize| match i {
            500_001 => 1e9,
            700_003 => -1e9,
            _ => (i % 7) as f64,
        };
        let xs = 0.0..n as f64;
        let kept = thinned((0..n).map(|i| (i as f64, y(i))), &Axis::linear(xs.clone()));
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
        assert_eq!(
            thinned(few.iter().copied(), &Axis::linear(0.0..1000.0)),
            few
        );
    }

    /// A run of `steps` steps sampled every `every`, cooling from 0.003 at `rate` a step,
    /// its energy falling from 3000 to 1000, one sample a second (numbers no time axis
    /// labels).
    fn run(name: &str, steps: u64, every: u64, rate: f64) -> Series {
        let samples = (0..=steps / every).map(|i| {
            let step = i * every;
            let energy = 1000.0 + 2000.0 * (1.0 - step as f64 / steps as f64);
            Sample {
                iteration: step,
                elapsed: std::time::Duration::from_secs(i),
                control: crate::search::Control::Temperature(0.003 * (-rate * step as f64).exp()),
                energy,
                best_energy: energy,
                ..Sample::default()
            }
        });
        Series {
            name: name.to_string(),
            samples: samples.collect(),
        }
    }

    /// The text of the SVG's `<text>` elements.
    fn texts(svg: &str) -> Vec<String> {
        svg.split("<text")
            .skip(1)
            .filter_map(|t| {
                Some(
                    t.split_once('>')?
                        .1
                        .split_once("</text>")?
                        .0
                        .trim()
                        .to_string(),
                )
            })
            .collect()
    }

    #[test]
    fn racers_on_one_schedule_share_one_temperature_line_named_after_all() {
        let figure = [
            run("lab-uniform-swap", 1000, 10, 1e-3),
            run("lab-uniform-two-opt", 1000, 20, 1e-3),
            run("lab-uniform-hotter", 1000, 10, 5e-4),
        ];
        let svg = svg(&figure, XAxis::Steps).unwrap();
        assert_eq!(
            svg.matches("<circle").count(),
            3,
            "one dot at each run's end"
        );
        let texts = texts(&svg);
        let has = |t: &str| texts.iter().filter(|x| *x == t).count();
        assert_eq!(
            has("lab-uniform: Energy (dashed: best so far; dot: result; dotted: next phase)"),
            1
        );
        assert_eq!(has("swap, two-opt (same T)"), 1, "{texts:?}");
        assert_eq!(has("hotter"), 2, "in both legends");
        assert_eq!(has("swap"), 1, "in the energy legend only");
        assert_eq!(has("steps"), 2, "a linear time axis");
    }

    #[test]
    fn runs_spanning_decades_are_drawn_on_a_log_time_axis() {
        let figure = [run("race-kiln", 5, 1, 1e-3), run("race-ga", 200, 1, 1e-3)];
        let texts = texts(&svg(&figure, XAxis::Seconds).unwrap());
        let count = |t: &str| texts.iter().filter(|x| *x == t).count();
        assert_eq!(count("seconds (log scale)"), 2, "{texts:?}");
        for tick in ["0.1", "1", "10", "100"] {
            assert_eq!(
                count(tick),
                2,
                "{tick} on both panels' time axes: {texts:?}"
            );
        }
        let alike = [run("a", 150, 1, 1e-3), run("b", 200, 1, 1e-3)];
        let texts = self::texts(&svg(&alike, XAxis::Seconds).unwrap());
        assert!(texts.iter().any(|t| t == "seconds"), "{texts:?}");
    }

    #[test]
    fn a_phase_without_a_temperature_draws_no_temperature_line() {
        use crate::search::{Control, Phase};
        let mut series = run("sudoku25", 100, 10, 1e-3);
        for sample in &mut series.samples[8..] {
            sample.phase = Phase::ConflictLearning;
            sample.control = Control::None;
        }
        let line = control_line(&series, XAxis::Steps, 1e-9);
        let steps: Vec<f64> = line.iter().map(|p| p.0).collect();
        assert_eq!(steps, [0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0]);
        assert!(line.iter().all(|p| p.1 > 1e-3), "{line:?}");
    }

    #[test]
    fn traces_without_temperatures_get_no_temperature_panel() {
        let cold = |name| {
            let mut series = run(name, 100, 1, 1e-3);
            for sample in &mut series.samples {
                sample.control = crate::search::Control::Temperature(0.0);
            }
            series
        };
        let figure = [cold("anytime-kiln"), cold("anytime-LKH")];
        let texts = texts(&svg(&figure, XAxis::Seconds).unwrap());
        assert!(
            texts.iter().all(|t| !t.contains("Temperature")),
            "{texts:?}"
        );
        assert_eq!(
            texts.iter().filter(|t| *t == "LKH").count(),
            1,
            "one legend: {texts:?}"
        );
        let warm = [run("anytime-kiln", 100, 1, 1e-3), cold("anytime-LKH")];
        let texts = self::texts(&svg(&warm, XAxis::Seconds).unwrap());
        assert!(
            texts.iter().any(|t| t.starts_with("Temperature")),
            "{texts:?}"
        );
    }

    #[test]
    fn legend_names_drop_what_every_file_name_starts_with() {
        let names = |n: &[&str]| legend_names(n.iter().copied());
        let top95 = names(&["top95-kiln", "top95-ga"]);
        assert_eq!(
            top95,
            (Some("top95".into()), vec!["kiln".into(), "ga".into()])
        );
        let words = names(&["lab-uniform-swap-adjacent", "lab-uniform-swap"]);
        assert_eq!(words.1, ["swap-adjacent", "swap"], "cut at a separator");
        assert_eq!(
            names(&["tsp-a280"]).1,
            ["tsp-a280"],
            "one name is kept whole"
        );
        assert_eq!(
            names(&["run", "run-2"]).1,
            ["run", "run-2"],
            "none would be empty"
        );
        assert_eq!(names(&["a", "b"]), (None, vec!["a".into(), "b".into()]));
    }

    #[test]
    fn only_svg_and_png_are_written() {
        assert!(matches!(format_of(Path::new("a.SVG")), Ok(Format::Svg)));
        assert!(matches!(format_of(Path::new("a.png")), Ok(Format::Png)));
        let e = format_of(Path::new("a.jpg")).expect_err("refused");
        assert_eq!(
            e.to_string(),
            "--output: a.jpg: can write .svg or .png figures only"
        );
    }
}
