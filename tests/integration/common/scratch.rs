//! A directory for one test's files, removed when the test ends, whether it passed or not.

use std::ops::Deref;
use std::path::Path;

pub(crate) struct Scratch(tempfile::TempDir);

/// A fresh, empty directory named after `test`.
pub(crate) fn scratch(test: &str) -> Scratch {
    Scratch(
        tempfile::Builder::new()
            .prefix(&format!("kiln-{test}-"))
            .tempdir()
            .unwrap(),
    )
}

impl Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}
