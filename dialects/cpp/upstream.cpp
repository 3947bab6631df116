// The upstream MLIR that Phobos uses, registered piece by piece.
//
// MLIR's C API registers dialects only all together (`mlirRegisterAllDialects`), and the object
// that defines it also registers every pass, one of which initialises every LLVM backend: a
// binary that links it links AArch64, AMDGPU, X86, Hexagon and a dozen more, whose static
// constructors then run at every process start (and it registers extensions that load the
// tensor dialect's dependents, linalg among them, whenever a pass depends on tensor).
//
// So this file registers only what Phobos needs, and it defines the C API's three
// register-everything functions in those terms: melior's utility module references them (Phobos
// never calls them), and a definition here keeps the linker from taking MLIR's.

#include "mlir-c/Conversion.h"
#include "mlir-c/Dialect/Affine.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Bufferization.h"
#include "mlir-c/Dialect/Complex.h"
#include "mlir-c/Dialect/ControlFlow.h"
#include "mlir-c/Dialect/DLTI.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/Dialect/IRDL.h"
#include "mlir-c/Dialect/Index.h"
#include "mlir-c/Dialect/LLVM.h"
#include "mlir-c/Dialect/Math.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/Dialect/NVGPU.h"
#include "mlir-c/Dialect/NVVM.h"
#include "mlir-c/Dialect/ROCDL.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/Dialect/Tensor.h"
#include "mlir-c/Dialect/UB.h"
#include "mlir-c/Dialect/Vector.h"
#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"
#include "mlir-c/Transforms.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ComplexToLLVM/ComplexToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUCommon/GPUToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Affine/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Func/Extensions/AllExtensions.h"
#include "mlir/Dialect/GPU/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/InlinerInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRefMemorySlot.h"
#include "mlir/Dialect/MemRef/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/AllocationOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/TensorInferTypeOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/RuntimeOpVerification.h"
#include "mlir/Dialect/Tensor/Transforms/SubsetInsertionOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/Transforms/SubsetOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/RuntimeOpVerification.h"
#include "mlir/Dialect/Vector/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/IR/AsmState.h"
#include "mlir/Support/Timing.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;

// The LLVM IR translations `gpu-module-to-binary` needs for NVVM.
static void registerTranslations(DialectRegistry &registry) {
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
}

// The upstream dialects Phobos's pipelines produce and consume, with their interfaces: lowering
// to LLVM (`convert-gpu-to-nvvm` takes the patterns of every loaded dialect that has them), the
// NVVM target (`gpu-module-to-binary`), translation to LLVM IR, and the op interfaces upstream
// passes query.
extern "C" void phobosRegisterUpstreamDialects(MlirDialectRegistry r) {
  for (MlirDialectHandle h : {
           mlirGetDialectHandle__affine__(), mlirGetDialectHandle__arith__(),
           mlirGetDialectHandle__bufferization__(), mlirGetDialectHandle__rocdl__(),
           mlirGetDialectHandle__cf__(), mlirGetDialectHandle__complex__(),
           mlirGetDialectHandle__dlti__(), mlirGetDialectHandle__func__(),
           mlirGetDialectHandle__gpu__(), mlirGetDialectHandle__index__(),
           mlirGetDialectHandle__irdl__(), mlirGetDialectHandle__llvm__(),
           mlirGetDialectHandle__math__(), mlirGetDialectHandle__memref__(),
           mlirGetDialectHandle__nvgpu__(), mlirGetDialectHandle__nvvm__(),
           mlirGetDialectHandle__scf__(), mlirGetDialectHandle__tensor__(),
           mlirGetDialectHandle__ub__(), mlirGetDialectHandle__vector__()})
    mlirDialectHandleInsertDialect(h, r);

  DialectRegistry &registry = *unwrap(r);
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertComplexToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  gpu::registerConvertGpuToLLVMInterface(registry);
  NVVM::registerConvertGpuToNVVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);

  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerTranslations(registry);

  func::registerAllExtensions(registry);
  LLVM::registerInlinerInterface(registry);
  NVVM::registerInlinerInterface(registry);
  builtin::registerCastOpInterfaceExternalModels(registry);
  affine::registerValueBoundsOpInterfaceExternalModels(registry);
  arith::registerValueBoundsOpInterfaceExternalModels(registry);
  gpu::registerValueBoundsOpInterfaceExternalModels(registry);
  memref::registerValueBoundsOpInterfaceExternalModels(registry);
  memref::registerMemorySlotExternalModels(registry);
  memref::registerAllocationOpInterfaceExternalModels(registry);
  scf::registerValueBoundsOpInterfaceExternalModels(registry);
  vector::registerValueBoundsOpInterfaceExternalModels(registry);
  // The models upstream's generic passes query on tensor, vector and memref ops (reified
  // shapes, subsets, runtime checks), as mlir-opt has them.
  tensor::registerInferTypeOpInterfaceExternalModels(registry);
  tensor::registerValueBoundsOpInterfaceExternalModels(registry);
  tensor::registerRuntimeVerifiableOpInterfaceExternalModels(registry);
  tensor::registerSubsetOpInterfaceExternalModels(registry);
  vector::registerSubsetOpInterfaceExternalModels(registry);
  memref::registerRuntimeVerifiableOpInterfaceExternalModels(registry);
}

// The passes of the upstream groups a GPU pipeline draws on: general transforms, conversions,
// and those of gpu, affine, arith, func, llvm, math, memref, nvgpu, scf and vector; and
// upstream's pipeline to NVVM (`gpu-lower-to-nvvm-pipeline`).
extern "C" void phobosRegisterUpstreamPasses(void) {
  gpu::registerGPUToNVVMPipeline();
  mlirRegisterTransformsPasses();
  mlirRegisterConversionPasses();
  mlirRegisterGPUPasses();
  mlirRegisterAffinePasses();
  mlirRegisterArithPasses();
  mlirRegisterFuncPasses();
  mlirRegisterLLVMPasses();
  mlirRegisterMathPasses();
  mlirRegisterMemRefPasses();
  mlirRegisterNVGPUPasses();
  mlirRegisterSCFPasses();
  mlirRegisterVectorPasses();
}

// MLIR's register-everything, as this binary has it (see the top of the file).
extern "C" void mlirRegisterAllDialects(MlirDialectRegistry r) { phobosRegisterUpstreamDialects(r); }
extern "C" void mlirRegisterAllPasses(void) { phobosRegisterUpstreamPasses(); }
extern "C" void mlirRegisterAllLLVMTranslations(MlirContext context) {
  DialectRegistry registry;
  registerTranslations(registry);
  unwrap(context)->appendDialectRegistry(registry);
}

// What a registered upstream pass (or pass pipeline) is, as a driver that takes it by its flag
// needs to know: "<op the pass runs on, empty for any>\n<the pass's name>" handed to `callback`
// (a pipeline: "builtin.module\n" and its flag). Returns false when no pass or pipeline has
// that flag.
extern "C" bool phobosUpstreamPassInfo(MlirStringRef flag, MlirStringCallback callback, void *user) {
  llvm::StringRef name(flag.data, flag.length);
  auto emit = [&](llvm::StringRef anchor, llvm::StringRef passName) {
    std::string out = (anchor + "\n" + passName).str();
    callback(mlirStringRefCreate(out.data(), out.size()), user);
  };
  if (const PassInfo *info = PassInfo::lookup(name)) {
    OpPassManager pm;
    if (failed(info->addToPipeline(pm, "", [](const llvm::Twine &) { return failure(); })))
      return false;
    for (Pass &pass : pm.getPasses()) {
      emit(pass.getOpName().value_or(""), pass.getName());
      return true;
    }
    return false;
  }
  if (PassPipelineInfo::lookup(name)) {
    emit("builtin.module", name);
    return true;
  }
  return false;
}

// MLIR text parsed as mlir-opt parses its input: one `builtin.module` as it is, anything else
// inside a module made around it (at line 0, column 0). Locations name `name`. Null on an
// error (the context's diagnostic handler has it).
extern "C" MlirOperation phobosParseImplicitModule(MlirContext ctx, MlirStringRef text, MlirStringRef name) {
  ParserConfig config(unwrap(ctx));
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(llvm::StringRef(text.data, text.length), config, llvm::StringRef(name.data, name.length));
  if (!module)
    return MlirOperation{nullptr};
  return wrap(module.release().getOperation());
}

// MLIR's printing and timing options given on a command line (`--mlir-print-unique-ssa-ids`,
// `--mlir-pretty-debuginfo`, `--mlir-timing-display=tree`, ...), as mlir-opt takes them: registered with LLVM's command-line
// parser once, then parsed from `argv` (argv[0] is the tool's name). Every printing flags
// object made afterwards starts from them. False on a bad option, with LLVM's message handed to
// `callback`.
extern "C" bool phobosParseMlirPrintingOptions(int argc, const char *const *argv, MlirStringCallback callback, void *user) {
  static bool registered = (registerAsmPrinterCLOptions(), registerDefaultTimingManagerCLOptions(), true);
  (void)registered;
  std::string message;
  llvm::raw_string_ostream os(message);
  bool ok = llvm::cl::ParseCommandLineOptions(argc, argv, "", &os);
  os.flush();
  if (!ok)
    callback(mlirStringRefCreate(message.data(), message.size()), user);
  return ok;
}

// mlir-opt's `--dump-pass-pipeline`: "Pass Manager with N passes:", then the pipeline in its
// indented form, handed to `callback`.
extern "C" void phobosDumpPassPipeline(MlirPassManager pm, MlirStringCallback callback, void *user) {
  PassManager &manager = *unwrap(pm);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "Pass Manager with " << manager.size() << " passes:\n";
  manager.printAsTextualPipeline(os, /*pretty=*/true);
  os << "\n\n";
  os.flush();
  callback(mlirStringRefCreate(text.data(), text.size()), user);
}

// mlir-opt's `--list-passes`: every registered upstream pass and pipeline with its options, on
// stdout. False when stdout could not take it (the error is cleared: the caller reports it).
extern "C" bool phobosPrintRegisteredPasses(void) {
  printRegisteredPasses();
  llvm::outs().flush();
  if (llvm::outs().has_error()) {
    llvm::outs().clear_error();
    return false;
  }
  return true;
}

// mlir-opt's `--mlir-timing` report of one input: a timing manager (its display and format
// from the command line), whose root scope holds a "Parser" phase, the pass manager's timers
// and an "Output" phase; the report goes to stderr when it is destroyed.
namespace {
struct PhobosTiming {
  DefaultTimingManager manager;
  TimingScope root;
  TimingScope phase;
};
} // namespace

extern "C" void *phobosTimingCreate(void) {
  auto *t = new PhobosTiming();
  applyDefaultTimingManagerCLOptions(t->manager);
  t->manager.setEnabled(true);
  t->root = t->manager.getRootScope();
  return t;
}

// Starts phase 0 ("Parser") or 1 ("Output"); any other number stops the phase running.
extern "C" void phobosTimingPhase(void *timing, int phase) {
  auto *t = static_cast<PhobosTiming *>(timing);
  t->phase.stop();
  if (phase == 0)
    t->phase = t->root.nest("Parser");
  else if (phase == 1)
    t->phase = t->root.nest("Output");
}

extern "C" void phobosTimingAttach(void *timing, MlirPassManager pm) {
  unwrap(pm)->enableTiming(static_cast<PhobosTiming *>(timing)->root);
}

extern "C" void phobosTimingReport(void *timing) {
  auto *t = static_cast<PhobosTiming *>(timing);
  t->phase.stop();
  t->root.stop();
  delete t;
}
