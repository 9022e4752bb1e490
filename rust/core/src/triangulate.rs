//! Placeholder; replaced by the constrained triangulation.
