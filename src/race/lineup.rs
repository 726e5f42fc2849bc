//! A race with its command line resolved: each pane's problem, spec and puzzle read once
//! at the edge into a [`PaneMaker`], which the race screen and the headless race run with
//! no flags left to read.

use std::io::Write;

use color_eyre::Result;

use crate::headless::report::Lines;
use crate::race::standings::Standings;
use crate::search::worker::Speed;
use kiln_tui::{BoardArea, Session};

/// What one race pane runs, its flags resolved (and its input read and checked) before
/// any pane starts: live, a session on the race screen; headless, its problem's own run.
pub trait PaneMaker: Send + Sync {
    /// The pane's run without a terminal: its problem's one JSON line on `out`.
    fn headless(&self, out: &mut Lines, log: &mut dyn Write) -> Result<()>;
    /// The pane's live run at `speed`, its board in `area`.
    fn pane(&self, speed: Speed, area: BoardArea) -> Result<Box<dyn Session>>;
    /// The pace a race of it starts at, unless `--speed` says.
    fn race_pace(&self) -> Speed;
    /// How a race of it is ranked: by the energy reached, unless the problem says.
    fn standings(&self) -> Standings {
        Standings::BestEnergy
    }
}

/// One pane of a race: its name, the values it races and what it runs.
pub struct Entrant {
    /// The raced values, e.g. `swap-adjacent`, or `swap/clustered` for two flags.
    pub name: String,
    /// (flag without dashes, value) for each raced flag, in the order given.
    pub raced: Vec<(String, String)>,
    /// What the pane runs.
    pub maker: Box<dyn PaneMaker>,
}

/// A race of one problem, resolved: its panes in the order of the values given.
pub struct Lineup {
    /// The problem's command name (`tsp`).
    pub problem: String,
    /// The raced flags, without dashes.
    pub flags: Vec<String>,
    /// The panes, in the order of the values given.
    pub entrants: Vec<Entrant>,
}

impl Lineup {
    /// The raced flags as typed: `--moves`, `--moves --layout`.
    pub fn flags_typed(&self) -> String {
        let flags: Vec<String> = self.flags.iter().map(|f| format!("--{f}")).collect();
        flags.join(" ")
    }

    /// What the race is won by: its problem's choice.
    pub fn standings(&self) -> Standings {
        self.entrants
            .first()
            .map_or(Standings::BestEnergy, |pane| pane.maker.standings())
    }
}
