//! `kiln completions SHELL` and `kiln man`: shell completion scripts and the man page, made
//! from the parser's own clap definition, so that they list exactly the commands and flags
//! kiln takes.

use std::io::{self, Write};

use clap::{CommandFactory, ValueEnum};
use clap_mangen::Man;

use super::Cli;

/// The shells `kiln completions` writes a script for.
#[derive(ValueEnum, Clone, Copy, Debug)]
// A doc line on a variant would become --help text beside its name.
#[allow(missing_docs)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
}

/// Writes the completion script for `shell` to `out`. clap_complete completes hidden flags
/// too (not hidden aliases), so the script also offers the live view's flags to the
/// commands that refuse them by name (`kiln plot --fps`): clap has no way to leave them out.
pub fn completions(shell: Shell, out: &mut dyn Write) -> io::Result<()> {
    let shell = match shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
    };
    // clap_complete panics when a write fails; made in memory, the script reaches `out`
    // here, and a reader gone (`kiln completions bash | head -1`) is an error kiln ends on
    // quietly.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "kiln", &mut script);
    out.write_all(&script)?;
    out.flush()
}

/// Writes the man page, every command on it: `man kiln` is where a user looks, and one
/// file is one thing to install. clap_mangen renders a page per command and names the
/// subcommands' pages (`kiln-sudoku(1)`) in the top one; here the top page's sections come
/// first, then the list of commands, then a section per command holding that command's
/// page, its sections demoted to subsections.
pub fn man(out: &mut dyn Write) -> io::Result<()> {
    // `kiln help` is `--help` by another name, which the page itself replaces.
    let mut kiln = Cli::command().disable_help_subcommand(true);
    // Building names each command `kiln COMMAND` and gives it the global flags.
    kiln.build();
    let commands: Vec<&clap::Command> = kiln
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .collect();
    let top = Man::new(kiln.clone());
    let mut page = Page::new();
    page.add(|w| top.render_title(w))?;
    // After the title, so that the page starts with `.TH` as man pages do.
    page.text.push_str(&page.preamble.clone());
    page.add(|w| top.render_name_section(w))?;
    page.add(|w| top.render_synopsis_section(w))?;
    page.add(|w| top.render_description_section(w))?;
    page.add(|w| top.render_options_section(w))?;
    page.add(|w| command_list(&commands).to_writer(w))?;
    for command in commands {
        command_section(command, &mut page)?;
    }
    page.add(|w| top.render_version_section(w))?;
    out.write_all(page.text.as_bytes())?;
    out.flush()
}

/// roff source put together from pieces, each rendered by clap_mangen or roff.
struct Page {
    /// What every rendered piece starts with (how `'` is typeset): the page has it once.
    preamble: String,
    text: String,
}

impl Page {
    fn new() -> Self {
        Page {
            preamble: roff::Roff::new().render(),
            text: String::new(),
        }
    }

    /// Appends what `render` writes, without the preamble.
    fn add(&mut self, render: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
        let mut piece = Vec::new();
        render(&mut piece)?;
        let piece = String::from_utf8_lossy(&piece);
        self.text
            .push_str(piece.strip_prefix(&self.preamble).unwrap_or(&piece));
        Ok(())
    }
}

fn full_name(command: &clap::Command) -> &str {
    command.get_bin_name().unwrap_or_else(|| command.get_name())
}

/// `.SH COMMANDS`: each command's name and the line its --help starts with.
fn command_list(commands: &[&clap::Command]) -> roff::Roff {
    let mut roff = roff::Roff::new();
    roff.control("SH", ["COMMANDS"]);
    for command in commands {
        roff.control("TP", []);
        roff.text([roff::bold(full_name(command))]);
        let about = command.get_about().map(ToString::to_string);
        roff.text([roff::roman(about.unwrap_or_default())]);
    }
    roff
}

/// `.SH "KILN COMMAND"` and the command's synopsis, description and own flags. The global
/// flags it takes are described once, in the top sections, and only named here.
fn command_section(command: &clap::Command, page: &mut Page) -> io::Result<()> {
    let mut heading = roff::Roff::new();
    heading.control("SH", [full_name(command).to_uppercase().as_str()]);
    page.add(|w| heading.to_writer(w))?;
    let globals: Vec<String> = command
        .get_arguments()
        .filter(|arg| arg.is_global_set() && !arg.is_hide_set())
        .filter_map(|arg| arg.get_long().map(|long| format!("--{long}")))
        .collect();
    let own = command.clone().mut_args(|arg| {
        if arg.is_global_set() {
            arg.hide(true)
        } else {
            arg
        }
    });
    let man = Man::new(own);
    let mut section = Page::new();
    section.add(|w| man.render_synopsis_section(w))?;
    section.add(|w| man.render_description_section(w))?;
    if !globals.is_empty() {
        let mut also = roff::Roff::new();
        also.control("PP", []);
        also.text([roff::roman(format!(
            "Takes the global options above too: {}.",
            globals.join(", ")
        ))]);
        section.add(|w| also.to_writer(w))?;
    }
    section.add(|w| man.render_options_section(w))?;
    for line in section.text.lines() {
        // roff escapes a text line that starts with a dot, so only macros start with `.SH`.
        match line.strip_prefix(".SH ") {
            Some(heading) => page.text.push_str(&format!(".SS {heading}\n")),
            None => page.text.push_str(&format!("{line}\n")),
        }
    }
    Ok(())
}
