//! PBM (P1, P4) and PNG: round trips, the shipped files, and one-line errors for bad input.

use kiln::anneal::Rng;
use kiln::problems::image::{Bitmap, file, pbm, png};
use rand::SeedableRng;

fn sample(width: usize, height: usize, seed: u64) -> Bitmap {
    Bitmap::random(width, height, 0.4, &mut Rng::seed_from_u64(seed))
}

#[test]
fn pbm_and_png_round_trip() {
    let _cores = crate::common::busy();
    // Widths around multiples of 8 exercise the padding of raw rows.
    for (i, (w, h)) in [(1, 1), (7, 3), (8, 2), (9, 5), (17, 4), (64, 3), (100, 1)]
        .into_iter()
        .enumerate()
    {
        let image = sample(w, h, i as u64);
        let plain = pbm::write_plain(&image);
        assert_eq!(file::parse(plain.as_bytes(), "p1").unwrap(), image);
        assert_eq!(file::parse(&pbm::write_raw(&image), "p4").unwrap(), image);
        assert_eq!(
            file::parse(&png::write(&image).unwrap(), "png").unwrap(),
            image
        );
    }
}

#[test]
fn save_picks_the_format_by_extension() {
    let _cores = crate::common::busy();
    let dir = crate::common::scratch::scratch("image-files");
    let image = sample(13, 6, 1);
    for name in ["a.pbm", "a.png"] {
        let path = dir.join(name);
        file::save(&path, &image).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(bytes.starts_with(b"\x89PNG"), name.ends_with(".png"));
        assert_eq!(file::load(&path).unwrap(), image);
    }
}

#[test]
fn plain_pbm_allows_comments_and_packed_digits() {
    let _cores = crate::common::busy();
    let text = "P1 # comment\n# another\n3 2\n101\n0 1 0\n";
    let image = file::parse(text.as_bytes(), "x").unwrap();
    assert_eq!((image.width, image.height), (3, 2));
    assert_eq!(image.bits, vec![1, 0, 1, 0, 1, 0]);
}

#[test]
fn shipped_files_load() {
    let _cores = crate::common::busy();
    let toy = file::load("puzzles/image/toy_4x5_noisy.pbm".as_ref()).unwrap();
    assert_eq!((toy.width, toy.height, toy.black_pixels()), (5, 4, 10));
    let shapes = file::load("puzzles/image/shapes_128_noisy.pbm".as_ref()).unwrap();
    assert_eq!((shapes.width, shapes.height), (128, 128));
}

#[test]
fn greys_are_thresholded_at_half() {
    let _cores = crate::common::busy();
    let grey = image::GrayImage::from_raw(4, 1, vec![0, 127, 128, 255]).unwrap();
    let mut bytes = Vec::new();
    grey.write_to(
        &mut std::io::Cursor::new(&mut bytes),
        image::ImageFormat::Png,
    )
    .unwrap();
    assert_eq!(file::parse(&bytes, "g.png").unwrap().bits, vec![1, 1, 0, 0]);
}

fn error(bytes: &[u8]) -> String {
    file::parse(bytes, "f").unwrap_err().to_string()
}

#[test]
fn bad_files_give_one_line_errors() {
    let _cores = crate::common::busy();
    let cases: &[(&[u8], &str)] = &[
        (b"", "f: empty file"),
        (
            b"GIF89a",
            "f: not a PBM (P1/P4) or PNG file (unknown magic number)",
        ),
        (
            b"P2\n2 2\n",
            "f:1:1: not a PBM file (expected the magic number P1 or P4)",
        ),
        (
            b"P1x",
            "f:1:3: not a PBM file (expected whitespace after the magic number)",
        ),
        (b"P1\n", "f:2:1: truncated header: missing the width"),
        (b"P1\n3", "f:2:2: truncated header: missing the height"),
        (b"P1\nw 3", "f:2:1: expected the width, found 'w'"),
        (b"P1\n0 3\n", "f:2: image size 0x3 is empty"),
        (
            b"P1\n20000 3\n",
            "f:2: image size 20000x3 is too large (at most 16384 per side and 16777216 pixels)",
        ),
        (
            b"P4\n5000 5000\n",
            "f:2: image size 5000x5000 is too large (at most 16384 per side and 16777216 pixels)",
        ),
        (
            b"P1\n99999999999999999999 1\n",
            "f:2:1: the width is too large",
        ),
        (
            b"P1\n2 2\n1 0\n1 2\n",
            "f:4:3: bad pixel '2' (expected 0 or 1)",
        ),
        (
            b"P1\n2 2\n1 0\n1",
            "f:4:2: truncated: expected 4 pixels, found 3",
        ),
        (
            b"P4\n9 2\n\x80",
            "f: truncated: expected 4 bytes of pixel data, found 1",
        ),
    ];
    for (bytes, expected) in cases {
        assert_eq!(
            &error(bytes),
            expected,
            "{:?}",
            String::from_utf8_lossy(bytes)
        );
    }
    let broken_png = &png::write(&sample(5, 5, 2)).unwrap()[..40];
    let e = error(broken_png);
    assert!(e.starts_with("f: bad PNG: "), "{e}");
    assert!(!e.contains('\n'), "{e}");
}

#[test]
fn missing_file_names_the_path() {
    let _cores = crate::common::busy();
    let e = file::load("puzzles/image/nope.pbm".as_ref()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("puzzles/image/nope.pbm: cannot read: "),
        "{e}"
    );
}
