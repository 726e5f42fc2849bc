//! The models' choices by name: one name per variant, as the command line takes it and the
//! JSON reports write it, kept beside the models so every front end spells them alike.

/// An enum whose variants each have one name.
pub trait Named: Sized + Copy + 'static {
    /// Every variant, in the order help lists them.
    const ALL: &'static [Self];
    /// This variant's name.
    fn name(self) -> &'static str;
    /// The variant called `name`, if there is one.
    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == name)
    }
}

/// Implements `Named` and `Display` for an enum from its variants and their names.
macro_rules! named {
    ($ty:ty { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $crate::named::Named for $ty {
            const ALL: &'static [Self] = &[$(Self::$variant),+];
            fn name(self) -> &'static str {
                match self {
                    $(Self::$variant => $name),+
                }
            }
        }
        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str($crate::named::Named::name(*self))
            }
        }
    };
}
pub(crate) use named;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::image::{Edges, Neighbourhood};
    use crate::problems::tsp::{Cost, Init, Layout, MoveSet};

    /// Every variant is listed, once, under a distinct name that reads back as itself.
    fn names<T: Named + PartialEq + std::fmt::Debug>() -> Vec<&'static str> {
        let names: Vec<&str> = T::ALL.iter().map(|v| v.name()).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        for v in T::ALL {
            assert_eq!(T::from_name(v.name()), Some(*v));
        }
        assert_eq!(T::from_name("no such name"), None);
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
