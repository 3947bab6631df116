//! The building blocks lowerings emit, shared by every pass: shuffles of any width and the
//! built-in combines ([`shuffle`]), butterflies and combine regions ([`fold`]), thread, warp and
//! block queries and workgroup globals ([`ids`]), structured control flow and barriers
//! ([`control`]), register-array items ([`vector`]), swizzled offsets ([`swizzle`]), tile copies into shared memory ([`tile_copy`], by TMA: [`tma`]) and LLVM pointers for `nvvm`
//! ops ([`pointer`]). A pass never imports another pass's internals: what two passes share is here.

pub mod control;
pub mod fold;
pub mod ids;
pub mod pointer;
pub mod shuffle;
pub mod swizzle;
pub mod tile_copy;
pub mod tma;
pub mod vector;
