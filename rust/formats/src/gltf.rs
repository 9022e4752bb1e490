//! Placeholder; replaced by the glTF writer.
