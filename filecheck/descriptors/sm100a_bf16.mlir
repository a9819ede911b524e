// GENERATED FILE -- do not edit. Regenerate with:
//   .venv/bin/python filecheck/gen_descriptor_pins.py
// Pinned descriptors for bf16 on sm_100a, tc.tcgen05_mma (M = 128 and 64, with #tc.idesc): 24 kernels, 128 #tc.desc values.
// Every value was checked by the generator against lower_tc.layout.emulate_reads
// (what the tensor core reads) == TileLayout.addresses (where the data is).
// RUN: lower-tc %s --split-input-file -p tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors -t mlir | filecheck %s

func.func @sm100_bf16_k_none_n24_k16() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x16xbf16, #tc.layout<k, swizzle = none>>
  %b = tc.smem_tile : !tc.tile<24x16xbf16, #tc.layout<k, swizzle = none>>
  %acc = tc.acc_zero : !tc.acc<128x24xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x16xbf16, #tc.layout<k, swizzle = none>>, !tc.tile<24x16xbf16, #tc.layout<k, swizzle = none>>, !tc.acc<128x24xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_k_none_n24_k16(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x16xbf16, #tc.layout<k, swizzle = none, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<24x16xbf16, #tc.layout<k, swizzle = none, offset = 4096>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x24xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800000>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x1000, lbo = 384, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800180100>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 128, n = 24, a_major = k, b_major = k, value = 0x08060490>} :
// -----
// B pinned at 32816
func.func @sm100_bf16_k_none_n128_k64_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = none, order = k_first>>
  %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = none, order = k_first, offset = 32816>>
  %acc = tc.acc_zero : !tc.acc<64x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = none, order = k_first>>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = none, order = k_first, offset = 32816>>, !tc.acc<64x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_k_none_n128_k64_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = none, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = none, order = k_first, offset = 32816>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x128xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080000>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x100, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080010>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x200, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080020>
// CHECK-SAME: , #tc.desc<k = 48, start = 0x300, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080030>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8030, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080803>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x8130, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080813>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x8230, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080823>
// CHECK-SAME: , #tc.desc<k = 48, start = 0x8330, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080833>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 64, n = 128, a_major = k, b_major = k, value = 0x04200490>} :
// -----
func.func @sm100_bf16_k_32b_n24_k16() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x16xbf16, #tc.layout<k, swizzle = 32b>>
  %b = tc.smem_tile : !tc.tile<24x16xbf16, #tc.layout<k, swizzle = 32b>>
  %acc = tc.acc_zero : !tc.acc<128x24xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x16xbf16, #tc.layout<k, swizzle = 32b>>, !tc.tile<24x16xbf16, #tc.layout<k, swizzle = 32b>>, !tc.acc<128x24xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_k_32b_n24_k16(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x16xbf16, #tc.layout<k, swizzle = 32b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<24x16xbf16, #tc.layout<k, swizzle = 32b, offset = 4096>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x24xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401000010000>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x1000, lbo = 16, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401000010100>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 128, n = 24, a_major = k, b_major = k, value = 0x08060490>} :
// -----
// B pinned at 33792
func.func @sm100_bf16_k_32b_n128_k48_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x48xbf16, #tc.layout<k, swizzle = 32b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<128x48xbf16, #tc.layout<k, swizzle = 32b, order = k_first, offset = 33792>>
  %acc = tc.acc_zero : !tc.acc<64x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x48xbf16, #tc.layout<k, swizzle = 32b, order = k_first>>, !tc.tile<128x48xbf16, #tc.layout<k, swizzle = 32b, order = k_first, offset = 33792>>, !tc.acc<64x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_k_32b_n128_k48_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x48xbf16, #tc.layout<k, swizzle = 32b, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x48xbf16, #tc.layout<k, swizzle = 32b, order = k_first, offset = 33792>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x128xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000403000010000>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x100, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000403000010010>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x200, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000403000010020>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8400, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000403000010840>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x8500, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000403000010850>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x8600, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000403000010860>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 64, n = 128, a_major = k, b_major = k, value = 0x04200490>} :
// -----
func.func @sm100_bf16_k_64b_n24_k32() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x32xbf16, #tc.layout<k, swizzle = 64b>>
  %b = tc.smem_tile : !tc.tile<24x32xbf16, #tc.layout<k, swizzle = 64b>>
  %acc = tc.acc_zero : !tc.acc<128x24xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x32xbf16, #tc.layout<k, swizzle = 64b>>, !tc.tile<24x32xbf16, #tc.layout<k, swizzle = 64b>>, !tc.acc<128x24xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_k_64b_n24_k32(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x32xbf16, #tc.layout<k, swizzle = 64b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<24x32xbf16, #tc.layout<k, swizzle = 64b, offset = 8192>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x24xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402000010000>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x20, lbo = 16, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402000010002>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x2000, lbo = 16, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402000010200>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x2020, lbo = 16, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402000010202>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 128, n = 24, a_major = k, b_major = k, value = 0x08060490>} :
// -----
// B pinned at 35840
func.func @sm100_bf16_k_64b_n128_k64_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 64b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 64b, order = k_first, offset = 35840>>
  %acc = tc.acc_zero : !tc.acc<64x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 64b, order = k_first>>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 64b, order = k_first, offset = 35840>>, !tc.acc<64x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_k_64b_n128_k64_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 64b, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 64b, order = k_first, offset = 35840>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x128xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010000>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010002>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x200, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010020>
// CHECK-SAME: , #tc.desc<k = 48, start = 0x220, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010022>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8c00, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x80004040000108c0>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x8c20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x80004040000108c2>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x8e00, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x80004040000108e0>
// CHECK-SAME: , #tc.desc<k = 48, start = 0x8e20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x80004040000108e2>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 64, n = 128, a_major = k, b_major = k, value = 0x04200490>} :
// -----
func.func @sm100_bf16_k_128b_n24_k64() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b>>
  %b = tc.smem_tile : !tc.tile<24x64xbf16, #tc.layout<k, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<128x24xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b>>, !tc.tile<24x64xbf16, #tc.layout<k, swizzle = 128b>>, !tc.acc<128x24xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_k_128b_n24_k64(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<24x64xbf16, #tc.layout<k, swizzle = 128b, offset = 16384>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x24xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010000>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010002>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x40, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010004>
// CHECK-SAME: , #tc.desc<k = 48, start = 0x60, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010006>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x4000, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010400>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x4020, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010402>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x4040, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010404>
// CHECK-SAME: , #tc.desc<k = 48, start = 0x4060, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010406>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 128, n = 24, a_major = k, b_major = k, value = 0x08060490>} :
// -----
// B pinned at 34816
func.func @sm100_bf16_k_128b_n128_k64_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b, order = k_first, offset = 34816>>
  %acc = tc.acc_zero : !tc.acc<64x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, order = k_first>>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b, order = k_first, offset = 34816>>, !tc.acc<64x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_k_128b_n128_k64_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b, order = k_first, offset = 34816>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x128xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010000>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010002>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x40, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010004>
// CHECK-SAME: , #tc.desc<k = 48, start = 0x60, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010006>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8800, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010880>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x8820, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010882>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x8840, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010884>
// CHECK-SAME: , #tc.desc<k = 48, start = 0x8860, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010886>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 64, n = 128, a_major = k, b_major = k, value = 0x04200490>} :
// -----
func.func @sm100_bf16_mn_none_n8_k16() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x16xbf16, #tc.layout<mn, swizzle = none>>
  %b = tc.smem_tile : !tc.tile<8x16xbf16, #tc.layout<mn, swizzle = none>>
  %acc = tc.acc_zero : !tc.acc<128x8xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x16xbf16, #tc.layout<mn, swizzle = none>>, !tc.tile<8x16xbf16, #tc.layout<mn, swizzle = none>>, !tc.acc<128x8xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_mn_none_n8_k16(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x16xbf16, #tc.layout<mn, swizzle = none, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<8x16xbf16, #tc.layout<mn, swizzle = none, offset = 4096>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x8xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800000>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x1000, lbo = 128, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800080100>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 128, n = 8, a_major = mn, b_major = mn, value = 0x08038490>} :
// -----
// B pinned at 32816
func.func @sm100_bf16_mn_none_n16_k48_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x48xbf16, #tc.layout<mn, swizzle = none, order = k_first>>
  %b = tc.smem_tile : !tc.tile<16x48xbf16, #tc.layout<mn, swizzle = none, order = k_first, offset = 32816>>
  %acc = tc.acc_zero : !tc.acc<64x16xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x48xbf16, #tc.layout<mn, swizzle = none, order = k_first>>, !tc.tile<16x48xbf16, #tc.layout<mn, swizzle = none, order = k_first, offset = 32816>>, !tc.acc<64x16xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_mn_none_n16_k48_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x48xbf16, #tc.layout<mn, swizzle = none, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<16x48xbf16, #tc.layout<mn, swizzle = none, order = k_first, offset = 32816>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x16xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 128, sbo = 768, base_offset = 0, swizzle = none, value = 0x0000403000080000>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x100, lbo = 128, sbo = 768, base_offset = 0, swizzle = none, value = 0x0000403000080010>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x200, lbo = 128, sbo = 768, base_offset = 0, swizzle = none, value = 0x0000403000080020>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8030, lbo = 128, sbo = 768, base_offset = 0, swizzle = none, value = 0x0000403000080803>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x8130, lbo = 128, sbo = 768, base_offset = 0, swizzle = none, value = 0x0000403000080813>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x8230, lbo = 128, sbo = 768, base_offset = 0, swizzle = none, value = 0x0000403000080823>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 64, n = 16, a_major = mn, b_major = mn, value = 0x04058490>} :
// -----
func.func @sm100_bf16_mn_32b_n16_k32() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x32xbf16, #tc.layout<mn, swizzle = 32b>>
  %b = tc.smem_tile : !tc.tile<16x32xbf16, #tc.layout<mn, swizzle = 32b>>
  %acc = tc.acc_zero : !tc.acc<128x16xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x32xbf16, #tc.layout<mn, swizzle = 32b>>, !tc.tile<16x32xbf16, #tc.layout<mn, swizzle = 32b>>, !tc.acc<128x16xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_mn_32b_n16_k32(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x32xbf16, #tc.layout<mn, swizzle = 32b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<16x32xbf16, #tc.layout<mn, swizzle = 32b, offset = 8192>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x16xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 256, sbo = 2048, base_offset = 0, swizzle = 32b, value = 0xc000408000100000>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x1000, lbo = 256, sbo = 2048, base_offset = 0, swizzle = 32b, value = 0xc000408000100100>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x2000, lbo = 256, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401000100200>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x2200, lbo = 256, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401000100220>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 128, n = 16, a_major = mn, b_major = mn, value = 0x08058490>} :
// -----
// B pinned at 35840
func.func @sm100_bf16_mn_32b_n32_k64_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = 32b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<32x64xbf16, #tc.layout<mn, swizzle = 32b, order = k_first, offset = 35840>>
  %acc = tc.acc_zero : !tc.acc<64x32xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = 32b, order = k_first>>, !tc.tile<32x64xbf16, #tc.layout<mn, swizzle = 32b, order = k_first, offset = 35840>>, !tc.acc<64x32xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_mn_32b_n32_k64_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = 32b, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<32x64xbf16, #tc.layout<mn, swizzle = 32b, order = k_first, offset = 35840>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x32xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 2048, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401000800000>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x200, lbo = 2048, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401000800020>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x400, lbo = 2048, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401000800040>
// CHECK-SAME: , #tc.desc<k = 48, start = 0x600, lbo = 2048, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401000800060>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8c00, lbo = 2048, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc0004010008008c0>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x8e00, lbo = 2048, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc0004010008008e0>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x9000, lbo = 2048, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401000800900>
// CHECK-SAME: , #tc.desc<k = 48, start = 0x9200, lbo = 2048, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401000800920>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 64, n = 32, a_major = mn, b_major = mn, value = 0x04098490>} :
// -----
func.func @sm100_bf16_mn_64b_n32_k16() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x16xbf16, #tc.layout<mn, swizzle = 64b>>
  %b = tc.smem_tile : !tc.tile<32x16xbf16, #tc.layout<mn, swizzle = 64b>>
  %acc = tc.acc_zero : !tc.acc<128x32xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x16xbf16, #tc.layout<mn, swizzle = 64b>>, !tc.tile<32x16xbf16, #tc.layout<mn, swizzle = 64b>>, !tc.acc<128x32xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_mn_64b_n32_k16(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x16xbf16, #tc.layout<mn, swizzle = 64b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<32x16xbf16, #tc.layout<mn, swizzle = 64b, offset = 4096>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x32xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 512, sbo = 2048, base_offset = 0, swizzle = 64b, value = 0x8000408000200000>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x1000, lbo = 512, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402000200100>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 128, n = 32, a_major = mn, b_major = mn, value = 0x08098490>} :
// -----
// B pinned at 34816
func.func @sm100_bf16_mn_64b_n64_k32_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x32xbf16, #tc.layout<mn, swizzle = 64b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<64x32xbf16, #tc.layout<mn, swizzle = 64b, order = k_first, offset = 34816>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x32xbf16, #tc.layout<mn, swizzle = 64b, order = k_first>>, !tc.tile<64x32xbf16, #tc.layout<mn, swizzle = 64b, order = k_first, offset = 34816>>, !tc.acc<64x64xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_mn_64b_n64_k32_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x32xbf16, #tc.layout<mn, swizzle = 64b, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<64x32xbf16, #tc.layout<mn, swizzle = 64b, order = k_first, offset = 34816>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x64xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 2048, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402000800000>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x400, lbo = 2048, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402000800040>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8800, lbo = 2048, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402000800880>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x8c00, lbo = 2048, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x80004020008008c0>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 64, n = 64, a_major = mn, b_major = mn, value = 0x04118490>} :
// -----
func.func @sm100_bf16_mn_128b_n64_k16() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x16xbf16, #tc.layout<mn, swizzle = 128b>>
  %b = tc.smem_tile : !tc.tile<64x16xbf16, #tc.layout<mn, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x16xbf16, #tc.layout<mn, swizzle = 128b>>, !tc.tile<64x16xbf16, #tc.layout<mn, swizzle = 128b>>, !tc.acc<128x64xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_mn_128b_n64_k16(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x16xbf16, #tc.layout<mn, swizzle = 128b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<64x16xbf16, #tc.layout<mn, swizzle = 128b, offset = 4096>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x64xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 1024, sbo = 2048, base_offset = 0, swizzle = 128b, value = 0x4000408000400000>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x1000, lbo = 1024, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000400100>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 128, n = 64, a_major = mn, b_major = mn, value = 0x08118490>} :
// -----
// B pinned at 33792
func.func @sm100_bf16_mn_128b_n128_k64_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = 128b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = 128b, order = k_first, offset = 33792>>
  %acc = tc.acc_zero : !tc.acc<64x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = 128b, order = k_first>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = 128b, order = k_first, offset = 33792>>, !tc.acc<64x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_mn_128b_n128_k64_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = 128b, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = 128b, order = k_first, offset = 33792>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x128xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 8192, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404002000000>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x800, lbo = 8192, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404002000080>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x1000, lbo = 8192, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404002000100>
// CHECK-SAME: , #tc.desc<k = 48, start = 0x1800, lbo = 8192, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404002000180>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8400, lbo = 8192, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404002000840>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x8c00, lbo = 8192, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x40004040020008c0>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x9400, lbo = 8192, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404002000940>
// CHECK-SAME: , #tc.desc<k = 48, start = 0x9c00, lbo = 8192, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x40004040020009c0>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 64, n = 128, a_major = mn, b_major = mn, value = 0x04218490>} :
// -----
// spec worked example: bf16 MN-major none, 16x16 (B tile): LBO 256, SBO 128
func.func @sm100_bf16_mn_none_spec_16x16() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x16xbf16, #tc.layout<mn, swizzle = none>>
  %b = tc.smem_tile : !tc.tile<16x16xbf16, #tc.layout<mn, swizzle = none>>
  %acc = tc.acc_zero : !tc.acc<128x16xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x16xbf16, #tc.layout<mn, swizzle = none>>, !tc.tile<16x16xbf16, #tc.layout<mn, swizzle = none>>, !tc.acc<128x16xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_mn_none_spec_16x16(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x16xbf16, #tc.layout<mn, swizzle = none, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<16x16xbf16, #tc.layout<mn, swizzle = none, offset = 4096>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x16xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800000>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x1000, lbo = 256, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800100100>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 128, n = 16, a_major = mn, b_major = mn, value = 0x08058490>} :
// -----
// spec worked example: bf16 MN-major 32b, 32x16 (B tile): LBO 256, SBO 512
func.func @sm100_bf16_mn_32b_spec_32x16() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x16xbf16, #tc.layout<mn, swizzle = 32b>>
  %b = tc.smem_tile : !tc.tile<32x16xbf16, #tc.layout<mn, swizzle = 32b>>
  %acc = tc.acc_zero : !tc.acc<128x32xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x16xbf16, #tc.layout<mn, swizzle = 32b>>, !tc.tile<32x16xbf16, #tc.layout<mn, swizzle = 32b>>, !tc.acc<128x32xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_mn_32b_spec_32x16(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x16xbf16, #tc.layout<mn, swizzle = 32b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<32x16xbf16, #tc.layout<mn, swizzle = 32b, offset = 4096>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x32xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 256, sbo = 2048, base_offset = 0, swizzle = 32b, value = 0xc000408000100000>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x1000, lbo = 256, sbo = 512, base_offset = 0, swizzle = 32b, value = 0xc000402000100100>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 128, n = 32, a_major = mn, b_major = mn, value = 0x08098490>} :
// -----
// spec worked example: bf16 MN-major 64b, 64x16 (B tile): LBO 512, SBO 1024
func.func @sm100_bf16_mn_64b_spec_64x16() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x16xbf16, #tc.layout<mn, swizzle = 64b>>
  %b = tc.smem_tile : !tc.tile<64x16xbf16, #tc.layout<mn, swizzle = 64b>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x16xbf16, #tc.layout<mn, swizzle = 64b>>, !tc.tile<64x16xbf16, #tc.layout<mn, swizzle = 64b>>, !tc.acc<128x64xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_mn_64b_spec_64x16(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x16xbf16, #tc.layout<mn, swizzle = 64b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<64x16xbf16, #tc.layout<mn, swizzle = 64b, offset = 4096>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x64xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 512, sbo = 2048, base_offset = 0, swizzle = 64b, value = 0x8000408000200000>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x1000, lbo = 512, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000200100>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 128, n = 64, a_major = mn, b_major = mn, value = 0x08118490>} :
// -----
// A padded by one atom (atom strides [2048, ...]); B pinned at 1024
func.func @sm100_bf16_k_128b_padded() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b, strides = [2048, 32768]>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 1024>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b, strides = [2048, 32768]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 1024>>, !tc.acc<128x64xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_k_128b_padded(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b, strides = [2048, 32768], offset = 9216>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 1024>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x64xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x2400, lbo = 16, sbo = 2048, base_offset = 0, swizzle = 128b, value = 0x4000408000010240>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x2420, lbo = 16, sbo = 2048, base_offset = 0, swizzle = 128b, value = 0x4000408000010242>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x2440, lbo = 16, sbo = 2048, base_offset = 0, swizzle = 128b, value = 0x4000408000010244>
// CHECK-SAME: , #tc.desc<k = 48, start = 0x2460, lbo = 16, sbo = 2048, base_offset = 0, swizzle = 128b, value = 0x4000408000010246>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x400, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010040>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x420, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010042>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x440, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010044>
// CHECK-SAME: , #tc.desc<k = 48, start = 0x460, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010046>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 128, n = 64, a_major = k, b_major = k, value = 0x08100490>} :
// -----
// A MN-major, B K-major
func.func @sm100_bf16_Amn_Bk_128b() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = 128b>>
  %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<128x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = 128b>>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b>>, !tc.acc<128x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_Amn_Bk_128b(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = 128b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b, offset = 16384>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x128xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 1024, sbo = 2048, base_offset = 0, swizzle = 128b, value = 0x4000408000400000>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x1000, lbo = 1024, sbo = 2048, base_offset = 0, swizzle = 128b, value = 0x4000408000400100>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x2000, lbo = 1024, sbo = 2048, base_offset = 0, swizzle = 128b, value = 0x4000408000400200>
// CHECK-SAME: , #tc.desc<k = 48, start = 0x3000, lbo = 1024, sbo = 2048, base_offset = 0, swizzle = 128b, value = 0x4000408000400300>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x4000, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010400>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x4020, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010402>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x4040, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010404>
// CHECK-SAME: , #tc.desc<k = 48, start = 0x4060, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010406>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 128, n = 128, a_major = mn, b_major = k, value = 0x08208490>} :
// -----
// A K-major, B MN-major
func.func @sm100_bf16_Ak_Bmn_128b() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b>>
  %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<128x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = 128b>>, !tc.acc<128x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_Ak_Bmn_128b(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = 128b, offset = 16384>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x128xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010000>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010002>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x40, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010004>
// CHECK-SAME: , #tc.desc<k = 48, start = 0x60, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010006>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x4000, lbo = 1024, sbo = 2048, base_offset = 0, swizzle = 128b, value = 0x4000408000400400>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x5000, lbo = 1024, sbo = 2048, base_offset = 0, swizzle = 128b, value = 0x4000408000400500>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x6000, lbo = 1024, sbo = 2048, base_offset = 0, swizzle = 128b, value = 0x4000408000400600>
// CHECK-SAME: , #tc.desc<k = 48, start = 0x7000, lbo = 1024, sbo = 2048, base_offset = 0, swizzle = 128b, value = 0x4000408000400700>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 128, n = 128, a_major = k, b_major = mn, value = 0x08210490>} :
// -----
// A MN-major, B K-major
func.func @sm100_bf16_Amn_Bk_none() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = none>>
  %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = none>>
  %acc = tc.acc_zero : !tc.acc<128x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = none>>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = none>>, !tc.acc<128x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_Amn_Bk_none(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = none, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = none, offset = 16384>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x128xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800000>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x1000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800100>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x2000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800200>
// CHECK-SAME: , #tc.desc<k = 48, start = 0x3000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800300>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x4000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800400>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x5000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800500>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x6000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800600>
// CHECK-SAME: , #tc.desc<k = 48, start = 0x7000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800700>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 128, n = 128, a_major = mn, b_major = k, value = 0x08208490>} :
// -----
// A K-major, B MN-major
func.func @sm100_bf16_Ak_Bmn_none() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = none>>
  %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = none>>
  %acc = tc.acc_zero : !tc.acc<128x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = none>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = none>>, !tc.acc<128x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_bf16_Ak_Bmn_none(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = none, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = none, offset = 16384>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x128xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800000>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x1000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800100>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x2000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800200>
// CHECK-SAME: , #tc.desc<k = 48, start = 0x3000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800300>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x4000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800400>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x5000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800500>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x6000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800600>
// CHECK-SAME: , #tc.desc<k = 48, start = 0x7000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800700>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f16, a = bf16, b = bf16, d = f32, m = 128, n = 128, a_major = k, b_major = mn, value = 0x08210490>} :
