//! 0/1 knapsack, annealed live. Items come from the seed; a move packs or unpacks an item,
//! or trades a packed one for one left out; the energy is minus the value packed plus a
//! penalty per unit of weight over the capacity. Dynamic programming gives the exact
//! optimum, and a run stops when it finds it. `cargo run --release --example knapsack
//! [SEED]` (default 1) opens the live view; `-- --headless` prints one JSON line.

use std::sync::Arc;

use kiln::anneal::{Problem, Rng, RunConfig, Schedule, auto_temperature};
use kiln::ui::{Board, Theme, watch::Watch};
use rand::{RngExt, SeedableRng};
use ratatui::{buffer::Buffer, layout::Rect};

const ITEMS: usize = 40;

/// The items, best value per unit of weight first, and what DP says of them.
struct Items {
    weight: Vec<u32>,
    value: Vec<u32>,
    capacity: u32,
    /// The most value that fits, by dynamic programming over the capacity.
    optimum: u32,
    /// Energy per unit of weight over the capacity: the least that puts every overweight
    /// packing above the optimum's energy.
    penalty: u32,
}

impl Items {
    /// `n` items of weight 5 to 40, each worth its weight and up to 15 more, and a third of
    /// their weight for the capacity.
    fn new(n: usize, seed: u64) -> Self {
        let mut rng = Rng::seed_from_u64(seed);
        let mut items: Vec<(u32, u32)> = (0..n)
            .map(|_| {
                let w = rng.random_range(5..=40);
                (w, w + rng.random_range(0..=15))
            })
            .collect();
        items.sort_by(|a, b| (b.1 * a.0).cmp(&(a.1 * b.0)));
        let (weight, value): (Vec<u32>, Vec<u32>) = items.into_iter().unzip();
        let total: u32 = weight.iter().sum();
        let capacity = total / 3;
        // best[c]: the most value of a packing that weighs at most c.
        let mut best = vec![0; total as usize + 1];
        for (&w, &v) in weight.iter().zip(&value) {
            for c in (w as usize..best.len()).rev() {
                best[c] = best[c].max(best[c - w as usize] + v);
            }
        }
        let optimum = best[capacity as usize];
        // A packing e over the capacity is worth at most best[capacity + e].
        let penalty = (1..=total - capacity)
            .map(|e| (best[(capacity + e) as usize] - optimum) / e + 1)
            .max()
            .unwrap_or(1);
        Items {
            weight,
            value,
            capacity,
            optimum,
            penalty,
        }
    }

    /// Value and weight of a packing.
    fn totals(&self, packed: &[bool]) -> (u32, u32) {
        let sum = |of: &[u32]| packed.iter().zip(of).filter(|p| *p.0).map(|p| p.1).sum();
        (sum(&self.value), sum(&self.weight))
    }

    fn energy(&self, (value, weight): (u32, u32)) -> f64 {
        let over = weight.saturating_sub(self.capacity);
        f64::from(self.penalty * over) - f64::from(value)
    }
}

struct Knapsack {
    items: Arc<Items>,
    packed: Vec<bool>,
    /// Value and weight packed, kept up to date by `apply`.
    totals: (u32, u32),
}

/// The item taken out and the item put in, either or both.
type Move = (Option<usize>, Option<usize>);

impl Knapsack {
    fn new(items: Arc<Items>, seed: u64) -> Self {
        let packed = vec![false; items.weight.len()];
        let mut knapsack = Knapsack {
            items,
            packed,
            totals: (0, 0),
        };
        knapsack.randomize(&mut Rng::seed_from_u64(seed));
        knapsack
    }

    /// Value and weight after `mv`.
    fn after(&self, (out, into): Move) -> (u32, u32) {
        let of =
            |i: Option<usize>| i.map_or((0, 0), |i| (self.items.value[i], self.items.weight[i]));
        let ((vi, wi), (vo, wo), (v, w)) = (of(into), of(out), self.totals);
        (v + vi - vo, w + wi - wo)
    }
}

impl Problem for Knapsack {
    type Move = Move;
    type Snapshot = Vec<bool>;

    fn energy(&self) -> f64 {
        self.items.energy(self.items.totals(&self.packed))
    }

    /// Two random items: a trade when one is packed and the other not, else a flip of one.
    fn propose(&self, rng: &mut Rng) -> Move {
        let n = self.packed.len();
        let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
        match (self.packed[a], self.packed[b]) {
            (true, false) => (Some(a), Some(b)),
            (false, true) => (Some(b), Some(a)),
            (true, true) => (Some(a), None),
            (false, false) => (None, Some(a)),
        }
    }

    fn delta(&self, &mv: &Move) -> f64 {
        self.items.energy(self.after(mv)) - self.items.energy(self.totals)
    }

    fn apply(&mut self, &(out, into): &Move) {
        self.totals = self.after((out, into));
        if let Some(i) = out {
            self.packed[i] = false;
        }
        if let Some(i) = into {
            self.packed[i] = true;
        }
    }

    /// Packs each item with a chance of one in three: about the capacity's weight.
    fn randomize(&mut self, rng: &mut Rng) {
        self.packed.fill_with(|| rng.random_bool(1.0 / 3.0));
        self.totals = self.items.totals(&self.packed);
    }

    fn snapshot(&self) -> Vec<bool> {
        self.packed.clone()
    }
}

/// The columns an item takes on the board: "# w40 v55" and a gap.
const CELL: u16 = 11;

/// The load against the capacity, then the items in columns: `#` packed, `.` not, and `!`
/// packed while the knapsack is overweight.
#[derive(Clone)]
struct Shelf(Arc<Items>);

impl Board<Vec<bool>> for Shelf {
    fn min_size(&self, _: Option<&Vec<bool>>) -> (u16, u16) {
        (2 * CELL, self.0.weight.len().div_ceil(2) as u16 + 2)
    }

    fn render(&self, packed: &Vec<bool>, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let (items, width) = (&self.0, area.width as usize);
        let (weight, capacity) = (items.totals(packed).1, items.capacity);
        let over = weight > capacity;
        let tail = format!("] {weight}/{capacity}{}", if over { " OVER" } else { "" });
        let bar = width.saturating_sub(tail.len() + 7);
        let full = bar * weight.min(capacity) as usize / capacity as usize;
        let gauge = format!("load [{}{}{tail}", "=".repeat(full), "-".repeat(bar - full));
        let style = if over { theme.conflict } else { theme.good };
        buf.set_stringn(area.x, area.y, gauge, width, style);
        let rows = packed.len().div_ceil((area.width / CELL).max(1) as usize);
        for (i, &inside) in packed.iter().enumerate() {
            let x = area.x + (i / rows) as u16 * CELL;
            let y = area.y + 2 + (i % rows) as u16;
            let (glyph, style) = match (inside, over) {
                (true, true) => ('!', theme.conflict),
                (true, false) => ('#', theme.good),
                (false, _) => ('.', theme.dim),
            };
            if x < area.right() && y < area.bottom() {
                let text = format!("{glyph} w{:<3}v{}", items.weight[i], items.value[i]);
                buf.set_stringn(x, y, text, (area.right() - x) as usize, style);
            }
        }
    }

    fn headline(&self, packed: &Vec<bool>, _: Option<f64>) -> Option<String> {
        let ((value, weight), items) = (self.0.totals(packed), &self.0);
        let (optimum, capacity) = (items.optimum, items.capacity);
        Some(format!(
            "value {value}/{optimum} weight {weight}/{capacity}"
        ))
    }

    fn energy_means(&self) -> &'static str {
        "minus the value, plus a penalty if too heavy"
    }

    fn target_word(&self) -> &'static str {
        "OPTIMAL"
    }

    fn at_target(&self, packed: &Vec<bool>) -> bool {
        let (value, weight) = self.0.totals(packed);
        value == self.0.optimum && weight <= self.0.capacity
    }
}

/// The live view or headless run of `items`, stopping at their optimum. The default
/// schedule's cold end freezes it too soon: ending at a hundredth of the start temperature,
/// over 500,000 steps, finds the optimum for 55 of seeds 10 to 69 (39 by default).
fn watch(items: &Arc<Items>, seed: u64) -> Watch<Knapsack, Shelf> {
    let (make, n) = (items.clone(), items.weight.len());
    let t0 = auto_temperature(&Knapsack::new(items.clone(), seed), seed, 0.5, 1000);
    let mut config = RunConfig::new(Schedule::Exponential { t_min: t0 / 100.0 }, t0);
    config.budget.max_steps = Some(500_000);
    let make = move |s| Knapsack::new(make.clone(), s);
    Watch::new(format!("knapsack of {n}"), make, Shelf(items.clone()))
        .config(config)
        .target(-f64::from(items.optimum))
        .seed(seed)
        .pace(10_000)
}

fn main() -> color_eyre::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seed = match args.iter().find(|a| !a.starts_with("--")) {
        Some(s) => (s.parse().ok())
            .ok_or_else(|| color_eyre::eyre::eyre!("SEED is a whole number, not '{s}'"))?,
        None => 1,
    };
    let items = Arc::new(Items::new(ITEMS, seed));
    let watch = watch(&items, seed);
    if !args.iter().any(|a| a == "--headless") {
        return watch.run();
    }
    let outcome = watch.solve()?;
    let stop = serde_json::to_string(&outcome.reason)?;
    let (value, weight) = items.totals(&outcome.best);
    println!(
        r#"{{"problem":"knapsack","seed":{seed},"items":{ITEMS},"energy":{},"value":{value},"weight":{weight},"capacity":{},"optimum":{},"iterations":{},"stop":{stop}}}"#,
        outcome.energy, items.capacity, items.optimum, outcome.iterations
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// The items drawn on a screen as (packed, weight, value): a glyph, `w` and a weight,
    /// `v` and a value, read left to right, top to bottom.
    fn items_drawn(screen: &[String]) -> Vec<(bool, u32, u32)> {
        let mut drawn = Vec::new();
        for line in screen {
            let words: Vec<&str> = line
                .split(|c: char| c.is_whitespace() || c == '│')
                .filter(|w| !w.is_empty())
                .collect();
            for w in words.windows(3) {
                let number = |word: &str, tag: char| word.strip_prefix(tag)?.parse::<u32>().ok();
                if let (Some(weight), Some(value)) = (number(w[1], 'w'), number(w[2], 'v')) {
                    match w[0] {
                        "#" | "!" => drawn.push((true, weight, value)),
                        "." => drawn.push((false, weight, value)),
                        _ => {}
                    }
                }
            }
        }
        drawn
    }

    #[test]
    fn every_delta_is_the_energy_change() {
        let items = Arc::new(Items::new(ITEMS, 5));
        let (mut knapsack, mut rng) = (Knapsack::new(items, 3), Rng::seed_from_u64(7));
        let mut swaps = 0;
        for _ in 0..20_000 {
            let mv = knapsack.propose(&mut rng);
            let before = (knapsack.snapshot(), knapsack.energy());
            let delta = knapsack.delta(&mv);
            assert_eq!(
                (knapsack.snapshot(), knapsack.energy()),
                before,
                "{mv:?} changed it"
            );
            knapsack.apply(&mv);
            assert_eq!(knapsack.energy() - before.1, delta, "{mv:?}");
            assert_eq!(knapsack.totals, knapsack.items.totals(&knapsack.packed));
            swaps += usize::from(mv.0.is_some() && mv.1.is_some());
        }
        assert!(swaps > 1000, "only {swaps} trades");
    }

    /// Over every packing of a small instance: the lowest energy is minus the DP optimum,
    /// and only a packing that fits has it, so the penalty is large enough.
    #[test]
    fn the_lowest_energy_is_the_optimum_and_fits() {
        for seed in 0..5 {
            let items = Items::new(14, seed);
            let (mut lowest, mut fits) = (f64::INFINITY, true);
            for set in 0..1u32 << 14 {
                let packed: Vec<bool> = (0..14).map(|i| set >> i & 1 == 1).collect();
                let (value, weight) = items.totals(&packed);
                let energy = items.energy((value, weight));
                if energy < lowest {
                    (lowest, fits) = (energy, weight <= items.capacity);
                } else if energy == lowest {
                    fits &= weight <= items.capacity;
                }
            }
            assert_eq!(lowest, -f64::from(items.optimum), "seed {seed}");
            assert!(fits, "seed {seed}: an overweight packing ties the optimum");
        }
    }

    #[test]
    fn headless_it_finds_the_optimum() {
        let items = Arc::new(Items::new(ITEMS, 1));
        let outcome = watch(&items, 1).solve().unwrap();
        assert_eq!(outcome.energy, -f64::from(items.optimum));
        let (value, weight) = items.totals(&outcome.best);
        assert_eq!(value, items.optimum);
        assert!(weight <= items.capacity);
    }

    #[test]
    fn the_live_view_shows_optimal_over_items_worth_the_optimum() {
        let items = Arc::new(Items::new(ITEMS, 1));
        let optimal = |rows: &[String]| rows.concat().contains("OPTIMAL");
        let text =
            (watch(&items, 1).screen_until((80, 24), Duration::from_secs(20), optimal)).unwrap();
        let shown = text.join("\n");
        assert!(shown.contains("OPTIMAL"), "{shown}");
        let drawn = items_drawn(&text);
        let mut pairs: Vec<(u32, u32)> = drawn.iter().map(|d| (d.1, d.2)).collect();
        let mut all: Vec<(u32, u32)> = items
            .weight
            .iter()
            .copied()
            .zip(items.value.clone())
            .collect();
        pairs.sort();
        all.sort();
        assert_eq!(pairs, all, "every item is drawn, once\n{shown}");
        let packed = drawn.iter().filter(|d| d.0);
        let (value, weight) = packed.fold((0, 0), |(v, w), d| (v + d.2, w + d.1));
        assert_eq!(value, items.optimum, "{shown}");
        assert!(weight <= items.capacity, "{shown}");
    }
}
