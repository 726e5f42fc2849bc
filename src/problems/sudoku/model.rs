//! What a Sudoku chain searches with.

/// What a chain of a preset searches with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Model {
    /// Annealing box permutations with in-box swaps (every preset but cell-linear and ga).
    BoxSwap,
    /// Annealing single cells with any value (`CellValues`).
    CellValues,
    /// Annealing a fill that never breaks a rule and leaves cells empty (`PartialFill`).
    PartialFill,
    /// The genetic algorithm over box permutations.
    Genetic,
    /// Conflict-driven clause learning on the grid as clauses (`ConflictLearning`): no annealing.
    ConflictLearning,
}

impl Model {
    /// How reports name it (`solved_by`).
    pub fn name(self) -> &'static str {
        match self {
            Model::BoxSwap => "box-swaps",
            Model::CellValues => "cell-values",
            Model::PartialFill => "partial-fill",
            Model::Genetic => "genetic",
            Model::ConflictLearning => "conflict-learning",
        }
    }
}
