//! Typed errors of the pipeline.

/// Why the pipeline could not run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Error {
    /// A setting is not finite or out of its range.
    #[error("setting `{name}` has an invalid value {value}")]
    BadSetting {
        /// The setting's name.
        name: &'static str,
        /// Its value.
        value: f64,
    },
    /// A road is unusable (strict mode only; otherwise it is left out with a diagnostic).
    #[error("road {road}: {reason}")]
    BadRoad {
        /// The road's id.
        road: String,
        /// The point concerned, when there is one.
        point: Option<usize>,
        /// What is wrong.
        reason: String,
    },
}
