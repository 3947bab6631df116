//! Passes over upstream vector ops.

pub mod fuse_dp4a;
