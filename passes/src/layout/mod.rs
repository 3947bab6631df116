//! Passes over the `layout` dialect.

pub mod compose_layouts;
