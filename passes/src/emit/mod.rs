//! The building blocks lowerings emit, shared by every pass: shuffles of any width and the
//! built-in combines ([`shuffle`]), butterflies and combine regions ([`fold`]), thread, warp and
//! block queries and workgroup globals ([`ids`]), structured control flow and barriers
//! ([`control`]), and register-array items ([`vector`]). A pass never imports another pass's internals: what two passes share is here.

pub mod control;
pub mod fold;
pub mod ids;
pub mod shuffle;
pub mod vector;
