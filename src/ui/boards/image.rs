//! The image board: the bitmap scaled down to fit, one braille dot (or, with `--ascii`, one
//! density character) standing for a block of pixels, dithered by the block's density.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::anneal::Runner;
use crate::anneal::worker::Speed;
use crate::export::{self, Export, Output};
use crate::problems::image::{Bitmap, ImageArgs, Mode, Rounds, build};
use crate::ui::boards::step_budget;
use crate::ui::session::{BoardArea, BoardKey, BoardView, Demo, Live, Session};
use crate::ui::theme::Theme;

pub struct ImageView {
    /// The start image (pattern) or the noisy observation (denoising), for the `i` key.
    input: Bitmap,
    clean: Option<Bitmap>,
    show_input: bool,
    /// The input file or the kernel, for saved files.
    name: String,
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

/// Draws `image` centred in `area`, as large as fits with square pixels.
pub fn draw_bitmap(image: &Bitmap, area: Rect, buf: &mut Buffer, theme: &Theme) {
    if area.is_empty() || image.width == 0 || image.height == 0 {
        return;
    }
    // A braille cell is 2x4 dots and about 1:2 in shape, so dots are square; an ASCII cell
    // stands for a 1x2 block.
    let (per_x, per_y) = if theme.ascii { (1.0, 2.0) } else { (2.0, 4.0) };
    let (w, h) = (image.width as f64, image.height as f64);
    let scale = (area.width as f64 * per_x / w).min(area.height as f64 * per_y / h);
    let cols = ((w * scale / per_x).ceil() as u16).clamp(1, area.width);
    let rows = ((h * scale / per_y).ceil() as u16).clamp(1, area.height);
    let x0 = area.x + (area.width - cols) / 2;
    let y0 = area.y + (area.height - rows) / 2;
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

impl BoardView<Bitmap> for ImageView {
    fn min_size(&self, _: Option<&Bitmap>) -> (u16, u16) {
        (24, 12)
    }

    fn render(&self, image: &Bitmap, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let shown = if self.show_input { &self.input } else { image };
        draw_bitmap(shown, area, buf, theme);
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

    fn target_word(&self) -> &'static str {
        "DONE"
    }

    fn export(&self, image: &Bitmap, best: &Bitmap) -> Option<Export> {
        let shown = if self.show_input { &self.input } else { image };
        Some(export::image::export(shown, best, &self.name))
    }
}

/// The image tab: one set of arguments per entry of `n`/`p`.
pub struct ImageDemo {
    pub runs: Vec<ImageArgs>,
}

/// Steps per second the headless default time budget stands for: the live view cools over
/// the same number of steps whatever its speed.
const TYPICAL_RATE: f64 = 40e6;

impl Demo for ImageDemo {
    fn name(&self) -> &str {
        "Image"
    }

    fn count(&self) -> usize {
        self.runs.len()
    }

    fn start(
        &self,
        index: usize,
        speed: Speed,
        _area: BoardArea,
    ) -> color_eyre::Result<Box<dyn Session>> {
        let args = &self.runs[index % self.runs.len()];
        let setup = build(args)?;
        let mut config = setup.run_config(args)?;
        step_budget(&mut config, &args.anneal, TYPICAL_RATE);
        if let Some(t) = args.anneal.reheat_t {
            config.t0 = config.t0.max(t);
        }
        let view = ImageView {
            input: setup.input.clone(),
            clean: setup.clean.clone(),
            show_input: false,
            name: export::image::run_name(args, &setup.mode),
        };
        let target = args.output_target()?;
        let output = || {
            target.clone().map(|target| Output {
                target,
                encode: export::image::output,
            })
        };
        let seed = args.anneal.seed;
        let reheat_to = config.t0;
        Ok(match setup.mode {
            Mode::Pattern(p) => {
                let runner = Runner::new(p, config, seed);
                Box::new(
                    Live::start(setup.title, runner, view, speed, reheat_to).with_output(output()),
                )
            }
            Mode::Denoise(d, plan) => {
                let rounds = Rounds::new(d, plan, config.clone(), seed);
                let title = format!("{} · {} rounds", setup.title, rounds.rounds());
                Box::new(
                    Live::configured(title, rounds, &config, view, speed, reheat_to)
                        .with_output(output()),
                )
            }
        })
    }

    /// A pattern's budget is about 80M steps: at 3M steps/s it forms in half a minute.
    fn default_speed(&self) -> Speed {
        Speed::Limited(3_000_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
