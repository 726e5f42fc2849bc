//! Saving what the live view shows: a picture of the board (PNG) and the best state found
//! as a headless run writes it, in new files that never replace an existing one.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use kiln_core::files::{Target, write_new};

/// Longest run name kept in a file name, so the saved message fits a title bar.
const NAME_CHARS: usize = 20;

/// The files one save writes, named `kiln-<problem>-<name>-<n>.<extension>`.
#[derive(Debug, Clone, PartialEq)]
pub struct Export {
    /// "tsp-berlin52": what every file name starts with after "kiln-".
    stem: String,
    files: Vec<(&'static str, Vec<u8>)>,
}

impl Export {
    /// Files of `problem` named after its run (an instance name, a file name), cut short
    /// and with only characters that are safe in a file name.
    pub fn new(problem: &str, name: &str) -> Self {
        let name: String = name
            .chars()
            .map(|c| match c {
                'a'..='z' | 'A'..='Z' | '0'..='9' | '-' | '_' | '.' => c,
                _ => '-',
            })
            .take(NAME_CHARS)
            .collect();
        // Cut short, "random300-clustered-1" would end in a dash before the file's number.
        let name = name.trim_end_matches(['-', '_', '.']);
        Export {
            stem: format!("{problem}-{name}"),
            files: Vec::new(),
        }
    }

    /// Adds a file with this extension and these contents.
    pub fn file(mut self, extension: &'static str, bytes: Vec<u8>) -> Self {
        self.files.push((extension, bytes));
        self
    }

    /// Writes the files into `dir` under the first number none of them is taken at, and
    /// returns their paths. A file that appears meanwhile is never overwritten: the files
    /// of this number written so far are removed and the next number is tried.
    pub fn save_in(&self, dir: &Path) -> io::Result<Vec<PathBuf>> {
        let mut n = 0u64;
        loop {
            n += 1;
            let paths: Vec<PathBuf> = self
                .files
                .iter()
                .map(|(extension, _)| dir.join(format!("kiln-{}-{n}.{extension}", self.stem)))
                .collect();
            if paths.iter().any(|p| p.symlink_metadata().is_ok()) {
                continue;
            }
            match self.write_all(&paths) {
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                written => return written.map(|()| paths),
            }
        }
    }

    /// Creates every file or, failing that, none.
    fn write_all(&self, paths: &[PathBuf]) -> io::Result<()> {
        for (i, (path, (_, bytes))) in paths.iter().zip(&self.files).enumerate() {
            if let Err(e) = write_new(path, bytes) {
                for written in &paths[..i] {
                    let _ = fs::remove_file(written);
                }
                return Err(e);
            }
        }
        Ok(())
    }
}

/// "saved kiln-tsp-berlin52-1.png, .tour": the first file in full, then the others'
/// extensions, short enough for the title bar.
pub fn saved_message(paths: &[PathBuf]) -> String {
    let mut message = String::from("saved");
    for (i, path) in paths.iter().enumerate() {
        let shown = if i == 0 {
            path.file_name()
        } else {
            path.extension()
        };
        let shown = shown.unwrap_or_default().to_string_lossy();
        message.push_str(if i == 0 { " " } else { ", ." });
        message.push_str(&shown);
    }
    message
}

/// What a headless run would write to `--output` for a state (in the format chosen).
pub type Encode<S> = Box<dyn Fn(&S) -> color_eyre::Result<Vec<u8>> + Send + Sync>;

/// Where a live run writes its best state when it ends (`--output FILE`), and how.
pub struct Output<S> {
    pub target: Target,
    pub encode: Encode<S>,
}

impl<S> Output<S> {
    /// Writes `best` to the target, as the headless run would.
    pub fn write(&self, best: &S) -> color_eyre::Result<()> {
        let bytes = (self.encode)(best)?;
        Ok(self.target.write(&bytes)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tour_export(text: &str) -> Export {
        Export::new("tsp", "berlin52")
            .file("png", b"picture".to_vec())
            .file("tour", text.as_bytes().to_vec())
    }

    fn names(paths: &[PathBuf]) -> Vec<String> {
        paths
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn each_save_takes_the_next_number_and_keeps_the_files_before() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let first = tour_export("first").save_in(dir).unwrap();
        assert_eq!(
            names(&first),
            ["kiln-tsp-berlin52-1.png", "kiln-tsp-berlin52-1.tour"]
        );
        let second = tour_export("second").save_in(dir).unwrap();
        assert_eq!(
            names(&second),
            ["kiln-tsp-berlin52-2.png", "kiln-tsp-berlin52-2.tour"]
        );
        assert_eq!(fs::read_to_string(&first[1]).unwrap(), "first");
        assert_eq!(fs::read_to_string(&second[1]).unwrap(), "second");
    }

    #[test]
    fn a_number_taken_by_any_one_file_is_skipped_and_that_file_kept() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        fs::write(dir.join("kiln-tsp-berlin52-1.tour"), "mine").unwrap();
        let saved = tour_export("ours").save_in(dir).unwrap();
        assert_eq!(names(&saved)[1], "kiln-tsp-berlin52-2.tour");
        assert_eq!(
            fs::read_to_string(dir.join("kiln-tsp-berlin52-1.tour")).unwrap(),
            "mine"
        );
        assert!(!dir.join("kiln-tsp-berlin52-1.png").exists());
    }

    #[test]
    fn write_new_refuses_an_existing_file() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let path = dir.join("out.tour");
        write_new(&path, b"one").unwrap();
        let e = write_new(&path, b"two").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(fs::read_to_string(&path).unwrap(), "one");
    }

    #[test]
    fn when_a_later_file_cannot_be_made_none_is_left() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let export = Export::new("tsp", "x")
            .file("png", vec![1])
            .file("missing/tour", vec![2]);
        let e = export.save_in(dir).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert_eq!(fs::read_dir(dir).unwrap().count(), 0);
    }

    #[test]
    fn names_are_short_and_safe() {
        let export = Export::new("sudoku", "my puzzles/../hard*one with a very long name");
        assert_eq!(export.stem, "sudoku-my-puzzles-..-hard-o");
        assert!(!export.stem.contains('/'));
        let random = Export::new("tsp", "random300-clustered-1");
        assert_eq!(random.stem, "tsp-random300-clustered");
    }

    #[test]
    fn the_message_names_the_first_file_then_the_other_extensions() {
        let paths = [
            PathBuf::from("./kiln-tsp-berlin52-1.png"),
            PathBuf::from("./kiln-tsp-berlin52-1.tour"),
        ];
        assert_eq!(
            saved_message(&paths),
            "saved kiln-tsp-berlin52-1.png, .tour"
        );
    }

    #[test]
    fn output_is_written_once_and_never_over_a_file() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let output = Output {
            target: Target::new(&dir.join("best.txt"), false),
            encode: Box::new(|s: &String| Ok(s.clone().into_bytes())),
        };
        output.target.check(&[]).unwrap();
        output.write(&"best".to_string()).unwrap();
        let refused = output.write(&"later".to_string()).unwrap_err();
        assert!(
            format!("{refused:#}").contains("best.txt: not written"),
            "{refused:#}"
        );
        assert_eq!(fs::read_to_string(&output.target.path).unwrap(), "best");
        let early = output.target.check(&[]).unwrap_err();
        assert!(early.to_string().contains("--force"), "{early}");
    }
}
