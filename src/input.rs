//! Errors in user input (files and flag values): one line that names the place and the
//! problem, and exit code 2.

use std::fmt;
use std::path::Path;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// The file (or flag) the problem is in.
    pub source: String,
    /// 1-based line, when the problem is at a line.
    pub line: Option<usize>,
    /// 1-based column, when the problem is at a character.
    pub column: Option<usize>,
    pub message: String,
}

impl InputError {
    pub fn new(source: impl Into<String>, message: impl Into<String>) -> Self {
        InputError {
            source: source.into(),
            line: None,
            column: None,
            message: message.into(),
        }
    }
    pub fn at_line(mut self, line: usize) -> Self {
        self.line = Some(line);
        self
    }
    pub fn at_column(mut self, column: usize) -> Self {
        self.column = Some(column);
        self
    }
    /// Reads a whole file, turning an I/O failure into an `InputError` about that file.
    pub fn read_to_string(path: &Path) -> Result<String, InputError> {
        std::fs::read_to_string(path)
            .map_err(|e| InputError::new(path.display().to_string(), format!("cannot read: {e}")))
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.source)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for InputError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_file_line_and_column() {
        let e = InputError::new("a.txt", "bad symbol 'x'")
            .at_line(3)
            .at_column(7);
        assert_eq!(e.to_string(), "a.txt:3:7: bad symbol 'x'");
        assert_eq!(InputError::new("b", "empty").to_string(), "b: empty");
    }
}
