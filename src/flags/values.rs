//! The models' choices as the command line spells them: clap reads and lists the names the
//! models give their variants (`Named`), so the flags, their help and the JSON agree.

use clap::builder::{PossibleValuesParser, TypedValueParser};

use crate::Named;

/// Parses one of `T`'s names into its variant; help and errors list the names.
pub fn named<T: Named + Send + Sync>() -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(T::ALL.iter().map(|v| v.name()))
        .map(|name| T::from_name(&name).expect("clap let through only the names listed"))
}

/// Implements clap's `ValueEnum` for `Named` choices whose flags say `value_enum`: each
/// variant under its name, as `#[derive(ValueEnum)]` would list them, with no clap where
/// the choice is defined.
macro_rules! value_enum {
    ($($ty:ty),+ $(,)?) => {$(
        impl clap::ValueEnum for $ty {
            fn value_variants<'a>() -> &'a [Self] {
                <$ty as $crate::Named>::ALL
            }
            fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
                Some(clap::builder::PossibleValue::new(<$ty as $crate::Named>::name(*self)))
            }
        }
    )+};
}

value_enum!(
    crate::headless::spec::ScheduleKind,
    crate::headless::spec::StallKind,
);

pub(crate) use value_enum;

#[cfg(test)]
mod tests {
    use clap::ValueEnum;

    use crate::headless::spec::{ScheduleKind, StallKind};

    fn names<T: ValueEnum>() -> Vec<String> {
        let names = T::value_variants().iter().map(|v| {
            let value = v.to_possible_value().expect("every variant is listed");
            value.get_name().to_string()
        });
        names.collect()
    }

    #[test]
    fn value_enums_take_and_list_their_names() {
        assert_eq!(
            names::<ScheduleKind>(),
            [
                "constant",
                "geometric",
                "linear",
                "lundy-mees",
                "exponential"
            ]
        );
        assert_eq!(names::<StallKind>(), ["reheat", "restart", "nothing"]);
        assert_eq!(
            ScheduleKind::from_str("lundy-mees", false),
            Ok(ScheduleKind::LundyMees)
        );
    }
}
