//! The image board: the bitmap as large as fits. A picture sized to the board (every demo
//! without a given size or file is) is drawn one pixel per braille dot; a larger one has
//! each dot (or, with `--ascii`, each density character) stand for a block of pixels,
//! dithered by the block's density.

use color_eyre::Result;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::anneal::{Launch, RunConfig, Runner};
use crate::headless::output::OutputFile;
use crate::headless::spec::Limits;
use crate::problems::image::{Bitmap, ImageSpec, Mode, Rounds, Setup, build};
use crate::search::Search;
use crate::search::Sketch;
use crate::search::worker::Speed;
use kiln_tui::Theme;
use kiln_tui::TraceSlot;
use kiln_tui::save::{Export, Output};
use kiln_tui::{Board, BoardArea, BoardKey, Demo, Live, Session, Tab};

/// The image board: the bitmap as it anneals (or the noisy input, with `i`).
pub struct ImageView {
    /// The start image (pattern) or the noisy observation (denoising), for the `i` key.
    input: Bitmap,
    clean: Option<Bitmap>,
    show_input: bool,
    /// The input file or the kernel, for saved files.
    name: String,
    /// What the energy counts, for the help.
    energy: &'static str,
}

const KEYS: &[BoardKey] = &[BoardKey {
    key: 'i',
    what: "show the input image / the current state",
}];

/// Braille dot bits by (column, row) inside a cell.
const DOTS: [[u8; 4]; 2] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]];
/// Ordered-dither thresholds by (column, row): a dot standing for several pixels is on
/// where their density beats its threshold, so grey areas show as dot patterns instead of
/// vanishing under a majority vote; at one pixel a dot or less it is exact.
const DITHER: [[f64; 4]; 2] = [
    [0.5 / 8.0, 6.5 / 8.0, 1.5 / 8.0, 7.5 / 8.0],
    [4.5 / 8.0, 2.5 / 8.0, 5.5 / 8.0, 3.5 / 8.0],
];

/// Fraction of black pixels in the block of `image` under cell-space rectangle
/// [x0, x1) x [y0, y1), in pixel units.
fn density(image: &Bitmap, x0: f64, x1: f64, y0: f64, y1: f64) -> f64 {
    let (xa, xb) = (
        x0 as usize,
        (x1.ceil() as usize).clamp(x0 as usize + 1, image.width),
    );
    let (ya, yb) = (
        y0 as usize,
        (y1.ceil() as usize).clamp(y0 as usize + 1, image.height),
    );
    let mut black = 0usize;
    for y in ya..yb {
        let row = &image.bits[y * image.width..][..image.width];
        black += row[xa..xb].iter().filter(|&&b| b != 0).count();
    }
    black as f64 / ((xb - xa) * (yb - ya)) as f64
}

/// Where an image is drawn in an area: centred, as large as fits with square pixels.
struct Placement {
    x0: u16,
    y0: u16,
    cols: u16,
    rows: u16,
    /// Dots (or ASCII half-cells) per pixel.
    scale: f64,
    /// Dots per cell across and down.
    per_x: f64,
    per_y: f64,
}

impl Placement {
    fn of(image: &Bitmap, area: Rect, theme: &Theme) -> Option<Placement> {
        if area.is_empty() || image.width == 0 || image.height == 0 {
            return None;
        }
        // A braille cell is 2x4 dots and about 1:2 in shape, so dots are square; an ASCII
        // cell stands for a 1x2 block.
        let (per_x, per_y) = if theme.ascii { (1.0, 2.0) } else { (2.0, 4.0) };
        let (w, h) = (image.width as f64, image.height as f64);
        let scale = (area.width as f64 * per_x / w).min(area.height as f64 * per_y / h);
        let cols = ((w * scale / per_x).ceil() as u16).clamp(1, area.width);
        let rows = ((h * scale / per_y).ceil() as u16).clamp(1, area.height);
        Some(Placement {
            x0: area.x + (area.width - cols) / 2,
            y0: area.y + (area.height - rows) / 2,
            cols,
            rows,
            scale,
            per_x,
            per_y,
        })
    }

    /// The cell pixel (`x`, `y`) is drawn in.
    fn cell(&self, x: usize, y: usize) -> (u16, u16) {
        let cx = ((x as f64 * self.scale / self.per_x) as u16).min(self.cols - 1);
        let cy = ((y as f64 * self.scale / self.per_y) as u16).min(self.rows - 1);
        (self.x0 + cx, self.y0 + cy)
    }
}

/// Draws `image` centred in `area`, as large as fits with square pixels.
pub fn draw_bitmap(image: &Bitmap, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let Some(Placement {
        x0,
        y0,
        cols,
        rows,
        scale,
        ..
    }) = Placement::of(image, area, theme)
    else {
        return;
    };
    let (w, h) = (image.width as f64, image.height as f64);
    // Pixels per dot (or per ASCII half-cell).
    let step = 1.0 / scale;
    for cy in 0..rows {
        for cx in 0..cols {
            let cell = &mut buf[(x0 + cx, y0 + cy)];
            if theme.ascii {
                let px = cx as f64 * step;
                let py = cy as f64 * 2.0 * step;
                if px >= w || py >= h {
                    continue;
                }
                let d = density(image, px, (px + step).min(w), py, (py + 2.0 * step).min(h));
                let glyph = match d {
                    d if d >= 0.75 => "#",
                    d if d >= 0.5 => "*",
                    d if d >= 0.25 => ":",
                    d if d > 0.0 => ".",
                    _ => " ",
                };
                cell.set_symbol(glyph).set_style(theme.given);
                continue;
            }
            let mut bits = 0u8;
            for (dx, column) in DOTS.iter().enumerate() {
                for (dy, bit) in column.iter().enumerate() {
                    let px = (cx as f64 * 2.0 + dx as f64) * step;
                    let py = (cy as f64 * 4.0 + dy as f64) * step;
                    if px >= w || py >= h {
                        continue;
                    }
                    let d = density(image, px, (px + step).min(w), py, (py + step).min(h));
                    if d > DITHER[dx][dy] {
                        bits |= bit;
                    }
                }
            }
            let glyph = char::from_u32(0x2800 + bits as u32).unwrap_or(' ');
            let mut text = [0u8; 4];
            cell.set_symbol(glyph.encode_utf8(&mut text))
                .set_style(theme.given);
        }
    }
}

impl Board<Bitmap> for ImageView {
    fn min_size(&self, _: Option<&Bitmap>) -> (u16, u16) {
        MIN_SIZE
    }

    fn render(&self, image: &Bitmap, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let shown = if self.show_input { &self.input } else { image };
        draw_bitmap(shown, area, buf, theme);
    }

    /// The cells holding the pixels the move changed, in the move's style (`@` in ASCII).
    fn mark(
        &self,
        image: &Bitmap,
        sketch: &Sketch,
        _: bool,
        area: Rect,
        buf: &mut Buffer,
        theme: &Theme,
    ) {
        let shown = if self.show_input { &self.input } else { image };
        let Some(placement) = Placement::of(shown, area, theme) else {
            return;
        };
        for &p in &sketch.places {
            let (x, y) = (p as usize % shown.width, p as usize / shown.width);
            let cell = &mut buf[placement.cell(x, y)];
            if theme.ascii {
                cell.set_symbol("@");
            }
            cell.set_style(theme.moved);
        }
    }

    fn headline(&self, image: &Bitmap, _: Option<f64>) -> Option<String> {
        let what = if self.show_input {
            "showing input"
        } else {
            "current"
        };
        let black = image.black_pixels();
        Some(
            match self.clean.as_ref().and_then(|c| c.pixel_error(image)) {
                Some(errors) => format!("{what} · {errors} pixels wrong"),
                None => format!("{what} · {black} black"),
            },
        )
    }

    fn keys(&self) -> &'static [BoardKey] {
        KEYS
    }

    fn key(&mut self, key: char) -> bool {
        if key == 'i' {
            self.show_input = !self.show_input;
            return true;
        }
        false
    }

    fn energy_means(&self) -> &'static str {
        self.energy
    }

    fn target_word(&self) -> &'static str {
        "DONE"
    }

    fn export(&self, image: &Bitmap, best: &Bitmap) -> Option<Export> {
        let shown = if self.show_input { &self.input } else { image };
        Some(super::picture::export(shown, best, &self.name))
    }
}

/// The image tab: one run per entry of `n`/`p`.
pub struct ImageDemo {
    /// The runs, one after another.
    pub runs: Vec<ImageSpec>,
    /// Where `--trace` writes, if it was given.
    pub trace: TraceSlot,
}

/// The smallest board, in cells.
pub(crate) const MIN_SIZE: (u16, u16) = (24, 12);

/// The pace the image tab starts at: about 35 proposals per pixel a second on an 80x24
/// terminal, slow enough to see a pattern come out of the noise, and few enough changes a
/// frame that the picture does not flood the terminal.
pub(crate) const DEFAULT_PACE: u64 = 300_000;
/// Proposals per pixel of a live run the user gave no budget: counted per pixel, so that a
/// pattern gets as far on a small screen as on a large one...
const SWEEPS: u64 = 250;
/// ...but a run lasts at least long enough to watch and at most a minute, in seconds at the
/// default pace.
const RUN_SECONDS: (u64, u64) = (10, 60);

/// Where the user gave no time limit, a live run is budgeted in steps alone (time spent
/// annealing means little at a chosen pace): their --max-steps, or `SWEEPS` per pixel.
fn live_budget(config: &mut RunConfig, given: Limits, pixels: usize) {
    if given.time_limit.is_some() {
        return;
    }
    config.budget.time_limit = None;
    let (least, most) = RUN_SECONDS;
    let steps = (pixels as u64 * SWEEPS).clamp(least * DEFAULT_PACE, most * DEFAULT_PACE);
    config.budget.max_steps.get_or_insert(steps);
}

/// The braille dots of a board of `area` cells (2 across and 4 down per cell), so that a
/// picture of this size is drawn one pixel per dot.
fn dots(area: BoardArea) -> (usize, usize) {
    let width = area.width.max(MIN_SIZE.0) as usize;
    let height = area.height.max(MIN_SIZE.1) as usize;
    (2 * width, 4 * height)
}

/// A run ready to anneal: the problem and how it cools.
struct Prepared {
    setup: Setup,
    config: RunConfig,
    seed: u64,
    /// What a reheat raises the temperature to.
    reheat_to: f64,
    /// The run's name in saved files (`e`).
    name: String,
    /// Where `--output` goes, checked.
    output: Option<OutputFile>,
}

impl Prepared {
    /// The view of this run: its input and, when denoising, the clean picture.
    fn view(&self) -> ImageView {
        ImageView {
            input: self.setup.input.clone(),
            clean: self.setup.clean.clone(),
            show_input: false,
            name: self.name.clone(),
            energy: match self.setup.mode {
                Mode::Pattern(_) => "pairs of black pixels, scored by the kernel",
                Mode::Denoise(..) => "pixels unlike the input + unlike neighbours",
            },
        }
    }

    /// The run the live view drives.
    fn into_launch(self) -> Launch<Box<dyn Search<Snapshot = Bitmap>>> {
        let Prepared {
            setup,
            config,
            seed,
            reheat_to,
            ..
        } = self;
        let (title, search): (String, Box<dyn Search<Snapshot = Bitmap>>) = match setup.mode {
            Mode::Pattern(p) => (setup.title, Box::new(Runner::new(p, config.clone(), seed))),
            Mode::Denoise(d, plan) => {
                let rounds = Rounds::new(d, plan, config.clone(), seed);
                let title = format!("{} · {} rounds", setup.title, rounds.rounds());
                (title, Box::new(rounds))
            }
        };
        Launch::annealing(title, search, &config, reheat_to)
    }
}

impl ImageDemo {
    /// Run `index` for a board of `area`: a random image (or the built-in picture) without a
    /// given size fills the board one pixel per dot.
    fn prepare(&self, index: usize, area: BoardArea) -> Result<Prepared> {
        let mut spec = self.runs[index % self.runs.len()].clone();
        if self.sized_to_board(index) {
            spec.model.size = Some(dots(area));
        }
        let setup = build(&spec)?;
        let mut config = setup.run_config(&spec.run)?;
        live_budget(&mut config, spec.run.limits, setup.input.len());
        Ok(Prepared {
            reheat_to: spec.run.reheat_temperature(&config),
            name: super::picture::run_name(&spec.model, &setup.mode),
            output: spec.output_file()?,
            setup,
            config,
            seed: spec.run.seed,
        })
    }
}

impl Demo for ImageDemo {
    fn tab(&self) -> Tab {
        Tab::new("Image", self.runs.len(), DEFAULT_PACE)
    }

    fn sized_to_board(&self, index: usize) -> bool {
        let model = &self.runs[index % self.runs.len()].model;
        model.file.is_none() && model.size.is_none()
    }

    fn start(&self, index: usize, speed: Speed, area: BoardArea) -> Result<Box<dyn Session>> {
        let mut prepared = self.prepare(index, area)?;
        // A lesson cools over its own steps (`Run::lesson_steps`).
        let run = &self.runs[index % self.runs.len()].run;
        if let Some(steps) = run.lesson_steps(speed) {
            prepared.config.lesson(steps);
        }
        let view = prepared.view();
        let output = prepared.output.clone().map(|file| Output {
            target: file.target,
            encode: Box::new(move |best: &Bitmap| super::picture::output(best, file.format)),
        });
        Ok(Box::new(
            Live::start(
                prepared.into_launch().traced(self.trace.take()),
                view,
                speed,
            )
            .with_output(output),
        ))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::anneal::Schedule;
    use crate::problems::image::ImageModel;

    fn checker(width: usize, height: usize, cell: usize) -> Bitmap {
        let mut image = Bitmap::white(width, height);
        for y in 0..height {
            for x in 0..width {
                image.bits[y * width + x] = (((x / cell) + (y / cell)) % 2) as u8;
            }
        }
        image
    }

    fn render(image: &Bitmap, w: u16, h: u16, theme: &Theme) -> Vec<String> {
        let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
        draw_bitmap(image, buf.area, &mut buf, theme);
        (0..h)
            .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect())
            .collect()
    }

    #[test]
    fn one_dot_per_pixel_when_it_fits() {
        // 4x4 pixels, left half black: 2 braille cells wide, 1 tall, at scale 1.
        let mut image = Bitmap::white(4, 4);
        for y in 0..4 {
            image.bits[y * 4] = 1;
            image.bits[y * 4 + 1] = 1;
        }
        let lines = render(&image, 2, 1, &Theme::colour(false));
        assert_eq!(lines, vec!["⣿⠀"]);
    }

    #[test]
    fn downscaling_keeps_the_majority_and_the_aspect() {
        // 64x64 checkerboard of 16-pixel squares in 8x4 cells = 16x16 dots: a square is
        // 4x4 dots, two cells wide and one tall.
        let lines = render(&checker(64, 64, 16), 8, 4, &Theme::colour(false));
        let (even, odd) = ("⠀⠀⣿⣿⠀⠀⣿⣿", "⣿⣿⠀⠀⣿⣿⠀⠀");
        assert_eq!(lines, vec![even, odd, even, odd]);
        // A wide area: the image stays square and centred.
        let wide = render(&checker(64, 64, 16), 20, 4, &Theme::colour(false));
        assert_eq!(wide[0], "      ⠀⠀⣿⣿⠀⠀⣿⣿      ");
    }

    #[test]
    fn ascii_shows_density_per_cell() {
        let lines = render(&checker(8, 8, 4), 8, 4, &Theme::monochrome(true));
        assert_eq!(lines, vec!["    ####", "    ####", "####    ", "####    "]);
        let mut grey = checker(2, 2, 1);
        grey.bits = vec![1, 0, 0, 0];
        assert_eq!(render(&grey, 1, 1, &Theme::monochrome(true)), vec![":"]);
    }

    /// The boards of an 80x24 and a 200x50 terminal.
    const SMALL: BoardArea = BoardArea {
        width: 48,
        height: 22,
    };
    const LARGE: BoardArea = BoardArea {
        width: 150,
        height: 48,
    };

    fn presets() -> ImageDemo {
        ImageDemo {
            runs: crate::problems::demos::image_presets(),
            trace: TraceSlot::default(),
        }
    }

    /// The preset whose arguments `pick` accepts.
    fn preset(pick: impl Fn(&ImageModel) -> bool) -> usize {
        presets()
            .runs
            .iter()
            .position(|spec| pick(&spec.model))
            .expect("the presets have one")
    }

    fn kernel(name: &str) -> usize {
        preset(|args| args.kernel.as_deref() == Some(name))
    }

    /// Reads a braille frame back as pixels, one per dot.
    fn decode(buf: &Buffer, width: usize, height: usize) -> Bitmap {
        let mut image = Bitmap::white(width, height);
        for y in 0..height {
            for x in 0..width {
                let cell = buf[((x / 2) as u16, (y / 4) as u16)].symbol();
                let bits = cell.chars().next().map_or(0, |c| c as u32 - 0x2800);
                image.bits[y * width + x] = u8::from(bits & DOTS[x % 2][y % 4] as u32 != 0);
            }
        }
        image
    }

    fn draws_exactly(image: &Bitmap, area: BoardArea) {
        let mut buf = Buffer::empty(Rect::new(0, 0, area.width, area.height));
        draw_bitmap(image, buf.area, &mut buf, &Theme::colour(false));
        assert!(decode(&buf, image.width, image.height) == *image);
    }

    /// A preset annealed as the live view would, at full speed: the picture and the energy
    /// at the start and after each tenth of the budget.
    struct Run {
        frames: Vec<Bitmap>,
        energies: Vec<f64>,
        clean: Option<Bitmap>,
    }

    fn anneal(index: usize, area: BoardArea) -> Run {
        let prepared = presets().prepare(index, area).unwrap();
        let budget = prepared.config.budget.max_steps.unwrap();
        let clean = prepared.setup.clean.clone();
        let mut search = prepared.into_launch().search;
        let mut frames = vec![search.snapshot()];
        let mut energies = vec![search.sample().energy];
        for _ in 0..10 {
            search.step_batch(budget / 10);
            frames.push(search.snapshot());
            energies.push(search.sample().energy);
        }
        assert!(search.step_batch(budget) <= 10, "the budget is spent");
        Run {
            frames,
            energies,
            clean,
        }
    }

    impl Run {
        fn last(&self) -> &Bitmap {
            self.frames.last().unwrap()
        }

        /// The energy falls over the run and is still falling in its second half, so the
        /// picture has something left to settle after the midpoint.
        fn keeps_improving(&self) {
            let (start, middle) = (self.energies[0], self.energies[5]);
            let late = self.energies[6..]
                .iter()
                .copied()
                .fold(f64::INFINITY, f64::min);
            assert!(late < middle && middle < start, "{:?}", self.energies);
        }
    }

    /// Sizes of the connected black regions (4-neighbours, across the wrapped edges), largest
    /// first.
    fn components(image: &Bitmap) -> Vec<usize> {
        let (w, h) = (image.width, image.height);
        let mut seen = vec![false; image.len()];
        let mut sizes = Vec::new();
        for start in 0..image.len() {
            if image.bits[start] == 0 || seen[start] {
                continue;
            }
            seen[start] = true;
            let (mut stack, mut size) = (vec![start], 0);
            while let Some(p) = stack.pop() {
                size += 1;
                let (x, y) = (p % w, p / w);
                for q in [
                    y * w + (x + 1) % w,
                    y * w + (x + w - 1) % w,
                    (y + 1) % h * w + x,
                    (y + h - 1) % h * w + x,
                ] {
                    if image.bits[q] != 0 && !seen[q] {
                        seen[q] = true;
                        stack.push(q);
                    }
                }
            }
            sizes.push(size);
        }
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        sizes
    }

    /// Neighbour pairs of unlike pixels (across the wrapped edges): side by side, one above
    /// the other.
    fn edges(image: &Bitmap) -> (usize, usize) {
        let (w, h) = (image.width, image.height);
        let at = |x: usize, y: usize| image.bits[y % h * w + x % w];
        let mut across = 0;
        let mut down = 0;
        for y in 0..h {
            for x in 0..w {
                across += usize::from(at(x, y) != at(x + 1, y));
                down += usize::from(at(x, y) != at(x, y + 1));
            }
        }
        (across, down)
    }

    #[test]
    fn presets_fill_the_board_one_pixel_per_dot_and_draw_exactly() {
        let demo = presets();
        for area in [SMALL, LARGE] {
            for index in 0..demo.runs.len() {
                let prepared = demo.prepare(index, area).unwrap();
                let input = &prepared.setup.input;
                assert_eq!((input.width, input.height), dots(area));
                draws_exactly(input, area);
                let steps = prepared.config.budget.max_steps.unwrap();
                let seconds = steps as f64 / DEFAULT_PACE as f64;
                assert!((10.0..=60.0).contains(&seconds), "{seconds} s");
                assert!(prepared.config.budget.time_limit.is_none());
            }
        }
    }

    #[test]
    fn a_live_run_is_budgeted_in_steps_unless_given_a_time_limit() {
        let timed = Limits {
            time_limit: Some(5.0),
            ..Limits::default()
        };
        let counted = Limits {
            max_steps: Some(123),
            ..Limits::default()
        };
        let budget = |given: &Limits, pixels: usize| {
            let mut config = RunConfig::new(Schedule::Constant, 1.0);
            config.budget.time_limit = Some(Duration::from_secs(2));
            config.budget.max_steps = given.max_steps;
            live_budget(&mut config, *given, pixels);
            (
                config.budget.max_steps,
                config.budget.time_limit.map(|t| t.as_secs()),
            )
        };
        assert_eq!(budget(&timed, 1000), (None, Some(2)));
        assert_eq!(budget(&counted, 1000), (Some(123), None));
        let default = Limits::default();
        assert_eq!(budget(&default, 30_000), (Some(30_000 * SWEEPS), None));
        // Never under 10 s nor over 60 s at the default pace.
        assert_eq!(budget(&default, 10), (Some(10 * DEFAULT_PACE), None));
        assert_eq!(budget(&default, 1 << 30), (Some(60 * DEFAULT_PACE), None));
    }

    #[test]
    fn stripes_run_one_way_about_ten_pixels_apart() {
        let run = anneal(kernel("stripes"), SMALL);
        run.keeps_improving();
        draws_exactly(run.last(), SMALL);
        let (across, down) = edges(run.last());
        // Horizontal bands: the picture changes going down, hardly going across.
        assert!(down > 8 * across, "{across} {down}");
        let period = 2.0 * run.last().len() as f64 / down as f64;
        assert!((7.0..=13.0).contains(&period), "period {period}");
    }

    #[test]
    fn clusters_gather_into_a_few_blobs() {
        let run = anneal(kernel("n8"), SMALL);
        run.keeps_improving();
        let sizes = components(run.last());
        let black = run.last().black_pixels();
        let blobs: Vec<usize> = sizes.into_iter().filter(|&n| n >= 50).collect();
        assert!((2..=6).contains(&blobs.len()), "{blobs:?}");
        assert!(
            blobs.iter().sum::<usize>() * 100 >= 95 * black,
            "{blobs:?} of {black}"
        );
    }

    #[test]
    fn the_maze_is_a_long_network_of_narrow_walls_without_a_direction() {
        let run = anneal(kernel("maze"), SMALL);
        run.keeps_improving();
        let last = run.last();
        let sizes = components(last);
        // A few walls wind through the whole board (on a torus, two can interlock).
        assert!(sizes[0] * 3 >= last.black_pixels(), "{sizes:?}");
        assert!(sizes.len() <= 5, "{sizes:?}");
        let (across, down) = edges(last);
        assert!(across * 2 > down && down * 2 > across, "{across} {down}");
        // Walls 4-5 pixels wide have a side every 2-3 black pixels; blobs of this much black
        // have one every 5 or more.
        let sides_per_black = (across + down) as f64 / last.black_pixels() as f64;
        assert!(sides_per_black > 0.4, "{sides_per_black}");
    }

    #[test]
    fn dots_are_many_spots_of_one_size() {
        let run = anneal(kernel("dots"), SMALL);
        run.keeps_improving();
        let sizes = components(run.last());
        assert!(sizes.len() >= 40, "{sizes:?}");
        let mean = sizes.iter().sum::<usize>() as f64 / sizes.len() as f64;
        assert!((15.0..=45.0).contains(&mean), "{sizes:?}");
        assert!(
            sizes.iter().all(|&n| (n as f64 - mean).abs() < 0.5 * mean),
            "{sizes:?}"
        );
    }

    #[test]
    fn denoising_starts_from_the_noisy_picture_and_cleans_it_up() {
        let index = preset(|args| args.denoise);
        let prepared = presets().prepare(index, SMALL).unwrap();
        let noisy = prepared.setup.input.clone();
        let run = anneal(index, SMALL);
        run.keeps_improving();
        assert_eq!(run.frames[0], noisy, "the first picture is the noisy input");
        let clean = run.clean.as_ref().unwrap();
        let errors: Vec<usize> = run
            .frames
            .iter()
            .map(|f| f.pixel_error(clean).unwrap())
            .collect();
        // About 10 % noise at the start and a few stray pixels at the end; cleaner after
        // every tenth up to 60 %, then the shapes' edges settle.
        assert!(errors[0] * 100 > 8 * noisy.len(), "{errors:?}");
        assert!(errors[10] * 100 < 3 * noisy.len(), "{errors:?}");
        assert!(errors[..7].windows(2).all(|w| w[1] < w[0]), "{errors:?}");
        assert!(errors[10] < errors[5], "{errors:?}");
    }

    #[test]
    fn odd_sizes_and_tiny_areas_do_not_panic() {
        for (w, h) in [(1, 1), (3, 7), (513, 2), (2, 513)] {
            let image = checker(w, h, 1);
            for (aw, ah) in [(1, 1), (2, 1), (80, 24), (7, 3)] {
                render(&image, aw, ah, &Theme::colour(false));
                render(&image, aw, ah, &Theme::colour(true));
            }
        }
    }
}
