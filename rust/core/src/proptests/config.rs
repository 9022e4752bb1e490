//! The proptest configuration of the core's properties (the crate's `proptest_config` module in
//! its tests, and a child module of `tests/flatten_properties.rs`): the logic of the root package's
//! `tests/common/mod.rs::proptest_config`, which the core cannot use.

use proptest::test_runner::{Config, RngSeed};

/// A configuration of `cases` cases drawn from the fixed `seed` (unless `PROPTEST_RNG_SEED` is
/// set), so that every run (and CI) draws the same cases, and no regression files: a failure
/// found this way becomes a named test.
pub(crate) fn proptest_config(cases: u32, seed: u64) -> Config {
    let default = Config::default();
    let rng_seed = match default.rng_seed {
        RngSeed::Random => RngSeed::Fixed(seed),
        fixed => fixed,
    };
    Config { cases, rng_seed, failure_persistence: None, ..default }
}
