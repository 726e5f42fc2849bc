//! A tiny problem for engine tests: a row of bits, energy = number of ones, move = flip one.

use rand::RngExt;

use super::{Problem, Rng};

#[derive(Clone, Debug)]
pub(crate) struct Bits {
    pub bits: Vec<bool>,
}

impl Bits {
    pub(crate) fn ones(n: usize) -> Self {
        Bits {
            bits: vec![true; n],
        }
    }
}

impl Problem for Bits {
    type Move = usize;
    type Snapshot = Vec<bool>;

    fn energy(&self) -> f64 {
        self.bits.iter().filter(|b| **b).count() as f64
    }
    fn propose(&self, rng: &mut Rng) -> usize {
        rng.random_range(0..self.bits.len())
    }
    fn delta(&self, mv: &usize) -> f64 {
        if self.bits[*mv] { -1.0 } else { 1.0 }
    }
    fn apply(&mut self, mv: &usize) {
        self.bits[*mv] = !self.bits[*mv];
    }
    fn randomize(&mut self, rng: &mut Rng) {
        for b in &mut self.bits {
            *b = rng.random();
        }
    }
    fn snapshot(&self) -> Vec<bool> {
        self.bits.clone()
    }
}
