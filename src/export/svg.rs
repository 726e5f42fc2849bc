//! The board pictures as SVG: the same drawing calls as the PNG canvas, written as shapes
//! (rectangles, circles, lines, and glyphs as paths of their font dots) on a white page.

use std::fmt::Write;

use image::Rgb;

use super::canvas::{Pen, Surface};
use super::font;

pub(crate) struct Svg {
    width: u32,
    height: u32,
    body: String,
}

/// `#rrggbb`.
fn hex(Rgb([r, g, b]): Rgb<u8>) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

impl Svg {
    pub(crate) fn new(width: u32, height: u32) -> Self {
        Svg {
            width,
            height,
            body: String::new(),
        }
    }

    pub(crate) fn into_bytes(self) -> Vec<u8> {
        let (w, h) = (self.width, self.height);
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
             <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
             viewBox=\"0 0 {w} {h}\">\n\
             <rect width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>\n{}</svg>\n",
            self.body
        )
        .into_bytes()
    }
}

// Writing into a String cannot fail: the results of `writeln!` are ignored.
impl Surface for Svg {
    fn fill(&mut self, x: i64, y: i64, width: i64, height: i64, colour: Rgb<u8>) {
        let _ = writeln!(
            self.body,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{width}\" height=\"{height}\" fill=\"{}\"/>",
            hex(colour)
        );
    }

    fn disc(&mut self, (x, y): (f64, f64), radius: f64, colour: Rgb<u8>) {
        let _ = writeln!(
            self.body,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{radius}\" fill=\"{}\"/>",
            hex(colour)
        );
    }

    fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), pen: Pen) {
        let dash = pen
            .dash
            .map(|d| format!(" stroke-dasharray=\"{d}\""))
            .unwrap_or_default();
        let _ = writeln!(
            self.body,
            "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" stroke=\"{}\" \
             stroke-width=\"{}\"{dash}/>",
            hex(pen.colour),
            pen.width
        );
    }

    fn glyph(&mut self, c: char, (x, y): (i64, i64), scale: u32, colour: Rgb<u8>) {
        let s = scale as i64;
        let mut path = String::new();
        for (col, row) in font::dots(c).into_iter().flatten() {
            let (px, py) = (x + col as i64 * s, y + row as i64 * s);
            let _ = write!(path, "M{px} {py}h{s}v{s}h-{s}z");
        }
        if !path.is_empty() {
            let _ = writeln!(self.body, "<path d=\"{path}\" fill=\"{}\"/>", hex(colour));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_written_inside_one_svg_element() {
        let mut svg = Svg::new(20, 10);
        svg.fill(1, 2, 3, 4, Rgb([255, 0, 0]));
        svg.disc((5.0, 5.0), 2.0, Rgb([0, 0, 0]));
        let pen = Pen {
            colour: Rgb([0, 0, 255]),
            width: 2,
            dash: Some(8),
        };
        svg.line((0.0, 0.0), (19.0, 9.0), pen);
        svg.glyph('1', (0, 0), 2, Rgb([0, 0, 0]));
        svg.glyph(' ', (0, 0), 2, Rgb([0, 0, 0]));
        let text = String::from_utf8(svg.into_bytes()).unwrap();
        assert!(text.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20\""));
        assert!(text.contains("<rect x=\"1\" y=\"2\" width=\"3\" height=\"4\" fill=\"#ff0000\"/>"));
        assert!(text.contains("<circle cx=\"5.0\" cy=\"5.0\" r=\"2\""));
        assert!(text.contains("stroke=\"#0000ff\" stroke-width=\"2\" stroke-dasharray=\"8\""));
        assert_eq!(
            text.matches("<path").count(),
            1,
            "a blank glyph draws nothing"
        );
        assert!(text.trim_end().ends_with("</svg>"));
    }
}
