//! The models' choices as the command line spells them. The models know nothing of clap;
//! these impls teach clap their names (kebab-case, the names JSON reports use too).

use clap::ValueEnum;
use clap::builder::PossibleValue;

use crate::problems::image::{Edges, Neighbourhood};
use crate::problems::tsp::{Cost, Init, Layout, MoveSet};

/// Implements `ValueEnum` for a model's enum from its variants and their names.
macro_rules! value_enum {
    ($ty:ty { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl ValueEnum for $ty {
            fn value_variants<'a>() -> &'a [Self] {
                &[$(Self::$variant),+]
            }
            fn to_possible_value(&self) -> Option<PossibleValue> {
                Some(PossibleValue::new(match self {
                    $(Self::$variant => $name),+
                }))
            }
        }
    };
}

value_enum!(MoveSet { TwoOpt => "two-opt", SwapAdjacent => "swap-adjacent", Swap => "swap" });
value_enum!(Cost { Euclidean => "euclidean", Squared => "squared" });
value_enum!(Init { Nearest => "nearest", Random => "random" });
value_enum!(Layout { Uniform => "uniform", Normal => "normal", Clustered => "clustered" });
value_enum!(Edges { Wrap => "wrap", Free => "free" });
value_enum!(Neighbourhood { Four => "4", Eight => "8" });

#[cfg(test)]
mod tests {
    use super::*;

    /// Every variant is listed, once, under a distinct name.
    fn names<T: ValueEnum>() -> Vec<String> {
        let names: Vec<String> = T::value_variants()
            .iter()
            .map(|v| v.to_possible_value().unwrap().get_name().to_string())
            .collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        names
    }

    #[test]
    fn every_choice_has_its_command_line_name() {
        assert_eq!(names::<MoveSet>(), ["two-opt", "swap-adjacent", "swap"]);
        assert_eq!(names::<Cost>(), ["euclidean", "squared"]);
        assert_eq!(names::<Init>(), ["nearest", "random"]);
        assert_eq!(names::<Layout>(), ["uniform", "normal", "clustered"]);
        assert_eq!(names::<Edges>(), ["wrap", "free"]);
        assert_eq!(names::<Neighbourhood>(), ["4", "8"]);
    }
}
