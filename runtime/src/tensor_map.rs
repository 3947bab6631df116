//! TMA tensor maps on a GPU: a kernel compiled for sm_90a takes, after its other parameters, a
//! pointer to a `CUtensorMap` per TMA copy (docs/abi.md). The launch builds each with
//! `cuTensorMapEncodeTiled` from the tensor's address and sizes (row-major, contiguous), the
//! box and the swizzle the compiler chose, and passes a copy of it in device memory; the
//! caller passes nothing for it.

use cudarc::driver::sys;

/// One tensor-map parameter, as the launch builds it.
#[derive(Clone, Debug)]
pub(crate) struct MapSpec {
    /// The tensor's parameter.
    pub tensor: usize,
    pub elem: phobos_sim::Prim,
    /// Sizes, outermost first.
    pub dims: Vec<phobos_sim::Extent>,
    /// The box, outermost first.
    pub r#box: Vec<u32>,
    /// Swizzle span in bytes (0: none).
    pub swizzle: u32,
}

/// The tensor-map parameters of a kernel's arguments, in order.
pub(crate) fn specs(args: &[phobos_sim::ArgKind]) -> Result<Vec<MapSpec>, String> {
    let mut out = Vec::new();
    for (i, a) in args.iter().enumerate() {
        let phobos_sim::ArgKind::TensorMap { r#box, swizzle, .. } = a else { continue };
        let (tensor, elem, dims) = phobos_sim::tensor_map_target(args, i)?;
        out.push(MapSpec { tensor, elem, dims, r#box: r#box.iter().map(|b| *b as u32).collect(), swizzle: *swizzle });
    }
    Ok(out)
}

/// The 128 bytes of `spec`'s map for the launch whose parameter values are `values` (a
/// tensor's its device address, a dimension's its value). An empty tensor (a size 0, which a
/// map cannot have) maps as one element of `empty`'s zeroed device memory, read only where a
/// box covers coordinate 0: what TMA reads of it is zero, as outside any tensor.
pub(crate) fn encode(spec: &MapSpec, values: &[u64], empty: impl FnOnce() -> Result<u64, String>) -> Result<[u64; 16], String> {
    use phobos_sim::Prim;
    use sys::CUtensorMapDataType_enum as T;
    let dtype = match spec.elem {
        Prim::I8 | Prim::I1 => T::CU_TENSOR_MAP_DATA_TYPE_UINT8,
        Prim::I16 => T::CU_TENSOR_MAP_DATA_TYPE_UINT16,
        Prim::F16 => T::CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
        Prim::BF16 => T::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
        Prim::I32 => T::CU_TENSOR_MAP_DATA_TYPE_INT32,
        Prim::F32 => T::CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
        Prim::I64 => T::CU_TENSOR_MAP_DATA_TYPE_INT64,
        Prim::F64 => T::CU_TENSOR_MAP_DATA_TYPE_FLOAT64,
    };
    let rank = spec.dims.len();
    // CUDA lists sizes innermost first.
    let mut sizes: Vec<u64> = spec
        .dims
        .iter()
        .rev()
        .map(|e| match *e {
            phobos_sim::Extent::Fixed(v) => v as u64,
            phobos_sim::Extent::Arg(i) => values.get(i).copied().unwrap_or(0),
        })
        .collect();
    let eb = spec.elem.bytes() as u64;
    let mut address = values.get(spec.tensor).copied().unwrap_or(0);
    let mut strides = Vec::new();
    if sizes.contains(&0) {
        sizes = vec![1; rank];
        strides = vec![16; rank.saturating_sub(1)];
        address = empty()?;
    } else {
        let mut s = eb;
        for n in sizes.iter().take(rank.saturating_sub(1)) {
            s = s.checked_mul(*n).ok_or("a tensor of more than 2^64 bytes")?;
            strides.push(s);
        }
    }
    let boxes: Vec<u32> = spec.r#box.iter().rev().copied().collect();
    let ones = vec![1u32; rank];
    let swizzle = match spec.swizzle {
        32 => sys::CUtensorMapSwizzle_enum::CU_TENSOR_MAP_SWIZZLE_32B,
        64 => sys::CUtensorMapSwizzle_enum::CU_TENSOR_MAP_SWIZZLE_64B,
        128 => sys::CUtensorMapSwizzle_enum::CU_TENSOR_MAP_SWIZZLE_128B,
        _ => sys::CUtensorMapSwizzle_enum::CU_TENSOR_MAP_SWIZZLE_NONE,
    };
    let mut map = sys::CUtensorMap { opaque: [0; 16] };
    // SAFETY: every array holds `rank` (strides `rank - 1`) entries, as the call reads; `map`
    // is a live, 64-byte-aligned CUtensorMap it writes.
    let r = unsafe {
        sys::cuTensorMapEncodeTiled(
            &mut map,
            dtype,
            rank as u32,
            address as *mut std::ffi::c_void,
            sizes.as_ptr(),
            strides.as_ptr(),
            boxes.as_ptr(),
            ones.as_ptr(),
            sys::CUtensorMapInterleave_enum::CU_TENSOR_MAP_INTERLEAVE_NONE,
            swizzle,
            sys::CUtensorMapL2promotion_enum::CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
            sys::CUtensorMapFloatOOBfill_enum::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
        )
    };
    if r != sys::CUresult::CUDA_SUCCESS {
        return Err(format!(
            "cuTensorMapEncodeTiled ({r:?}) for the tensor at {address:#x}: sizes {sizes:?}, byte strides {strides:?}, box {boxes:?}, swizzle {}",
            spec.swizzle
        ));
    }
    Ok(map.opaque)
}
