//! N queens, annealed live. One queen per column and a move swaps the rows of two columns,
//! so no two queens share a row or a column; the energy is the number of queen pairs that
//! share a diagonal. `cargo run --release --example queens -- [N]` (default 16) opens the
//! live view; `--headless` prints one JSON line instead, `--seed` and `--record` as kiln's.

use std::process::ExitCode;

use kiln_core::anneal::{Problem, Rng, randomized};
use kiln_tui::watch::{self, Watch};
use kiln_tui::{Board, Theme, put};
use rand::RngExt;
use rand::seq::SliceRandom;
use ratatui::{buffer::Buffer, layout::Rect};

/// Attacking pairs among `k` queens on one diagonal.
fn pairs(k: u32) -> f64 {
    f64::from(k * k.saturating_sub(1) / 2)
}

/// The diagonal (row + column) and anti-diagonal (row + n-1 - column) through a square.
fn lines(n: usize, row: usize, column: usize) -> [usize; 2] {
    [row + column, row + n - 1 - column]
}

/// Queens on each diagonal and each anti-diagonal, for a queen in `rows[c]` of column c.
fn count(rows: &[usize]) -> [Vec<u32>; 2] {
    let n = rows.len();
    let mut counts = [vec![0; 2 * n], vec![0; 2 * n]];
    for (column, &row) in rows.iter().enumerate() {
        for (d, line) in lines(n, row, column).into_iter().enumerate() {
            counts[d][line] += 1;
        }
    }
    counts
}

struct Queens {
    /// The row of each column's queen.
    rows: Vec<usize>,
    diagonals: [Vec<u32>; 2],
}

impl Queens {
    /// n queens, one a column, in rows the seed shuffles.
    fn new(n: usize, seed: u64) -> Self {
        let (rows, diagonals) = ((0..n).collect(), Default::default());
        randomized(Queens { rows, diagonals }, seed)
    }

    /// The squares a swap of the queens of columns a and b empties (-1) and fills (+1).
    fn squares(&self, a: usize, b: usize) -> [(usize, usize, i32); 4] {
        let (ra, rb) = (self.rows[a], self.rows[b]);
        [(ra, a, -1), (rb, b, -1), (rb, a, 1), (ra, b, 1)]
    }
}

impl Problem for Queens {
    /// Two columns whose queens trade rows.
    type Move = (usize, usize);
    type Snapshot = Vec<usize>;

    fn energy(&self) -> f64 {
        self.diagonals.iter().flatten().map(|&k| pairs(k)).sum()
    }

    fn propose(&self, rng: &mut Rng) -> (usize, usize) {
        let n = self.rows.len();
        let a = rng.random_range(0..n);
        let b = rng.random_range(0..n - 1);
        (a, if b >= a { b + 1 } else { b })
    }

    fn delta(&self, &(a, b): &(usize, usize)) -> f64 {
        let (n, squares) = (self.rows.len(), self.squares(a, b));
        let mut delta = 0.0;
        for (d, counts) in self.diagonals.iter().enumerate() {
            // The four squares' lines on this side, each line counted once with its net change.
            let changes = squares.map(|(r, c, sign)| (lines(n, r, c)[d], sign));
            for (i, &(line, _)) in changes.iter().enumerate() {
                if changes[..i].iter().all(|&(l, _)| l != line) {
                    let net: i32 = changes.iter().filter(|c| c.0 == line).map(|c| c.1).sum();
                    delta += pairs(counts[line].saturating_add_signed(net)) - pairs(counts[line]);
                }
            }
        }
        delta
    }

    fn apply(&mut self, &(a, b): &(usize, usize)) {
        let n = self.rows.len();
        for (row, column, by) in self.squares(a, b) {
            for (d, line) in lines(n, row, column).into_iter().enumerate() {
                self.diagonals[d][line] = self.diagonals[d][line].wrapping_add_signed(by);
            }
        }
        self.rows.swap(a, b);
    }

    fn randomize(&mut self, rng: &mut Rng) {
        self.rows.shuffle(rng);
        self.diagonals = count(&self.rows);
    }

    fn snapshot(&self) -> Vec<usize> {
        self.rows.clone()
    }
}

/// Draws the board a square per two cells; a queen that shares a diagonal is an `X`.
#[derive(Clone)]
struct Chessboard(usize);

impl Board<Vec<usize>> for Chessboard {
    fn min_size(&self, _: Option<&Vec<usize>>) -> (u16, u16) {
        (2 * self.0 as u16, self.0 as u16)
    }

    fn energy_means(&self) -> &'static str {
        "pairs of queens on a diagonal; 0 = solved"
    }

    fn render(&self, rows: &Vec<usize>, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let (n, counts) = (rows.len(), count(rows));
        for row in 0..n {
            put(buf, area, (0, row), &". ".repeat(n), theme.dim);
        }
        for (column, &queen) in rows.iter().enumerate() {
            // Attacked: another queen on either of its diagonals.
            let attacked = (0..2).any(|d| counts[d][lines(n, queen, column)[d]] > 1);
            let (text, style) = match attacked {
                true => ("X", theme.conflict),
                false => ("Q", theme.good),
            };
            put(buf, area, (2 * column, queen), text, style);
        }
    }
}

/// Queens on an n x n board, stopping at no attacks.
fn watch(n: usize) -> Watch<Queens, Chessboard> {
    let make = move |seed| Queens::new(n, seed);
    Watch::new(format!("{n} queens"), make, Chessboard(n)).target(0.0)
}

fn main() -> ExitCode {
    watch::main(|args| Ok(watch(args.number("N", 4..=200, 16)?)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use std::time::Duration;

    /// The columns of the queens drawn on each row of a screen's board, top to bottom.
    fn queens_drawn(screen: &[String], n: usize) -> Vec<usize> {
        let row = |line: &str| {
            let cells: Vec<char> = line.chars().collect();
            (0..cells.len().saturating_sub(2 * n)).find_map(|x| {
                let board: Vec<char> = (0..n).map(|c| cells[x + 2 * c]).collect();
                let gaps = (0..n - 1).all(|c| cells[x + 2 * c + 1] == ' ');
                (gaps && board.iter().all(|c| ".QX".contains(*c)) && board.contains(&'Q'))
                    .then(|| board.iter().position(|&c| c == 'Q').unwrap())
            })
        };
        screen.iter().filter_map(|line| row(line)).collect()
    }

    #[test]
    fn every_delta_is_the_energy_change() {
        let (mut queens, mut rng) = (Queens::new(9, 3), Rng::seed_from_u64(7));
        for _ in 0..5000 {
            let mv = queens.propose(&mut rng);
            let (before, delta) = (queens.energy(), queens.delta(&mv));
            queens.apply(&mv);
            assert_eq!(queens.energy() - before, delta, "{mv:?}");
        }
    }

    #[test]
    fn headless_it_places_twenty_queens() {
        let outcome = watch(20).solve().unwrap();
        assert_eq!(outcome.energy, 0.0);
        assert!(count(&outcome.best).iter().flatten().all(|&k| k <= 1));
    }

    #[test]
    fn the_live_view_shows_solved_over_a_board_of_non_attacking_queens() {
        let solved = |rows: &[String]| rows.concat().contains("SOLVED");
        let text = (watch(8).screen_until((80, 24), Duration::from_secs(20), solved)).unwrap();
        assert!(text.concat().contains("SOLVED"), "{}", text.join("\n"));
        let columns = queens_drawn(&text, 8);
        assert_eq!(columns.len(), 8, "{}", text.join("\n"));
        assert!(
            count(&columns).iter().flatten().all(|&k| k <= 1),
            "{columns:?}"
        );
    }
}
