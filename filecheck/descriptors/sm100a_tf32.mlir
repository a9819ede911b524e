// GENERATED FILE -- do not edit. Regenerate with:
//   .venv/bin/python filecheck/gen_descriptor_pins.py
// Pinned descriptors for tf32 on sm_100a, tc.tcgen05_mma (M = 128 and 64, with #tc.idesc): 16 kernels, 96 #tc.desc values.
// Every value was checked by the generator against lower_tc.layout.emulate_reads
// (what the tensor core reads) == TileLayout.addresses (where the data is).
// RUN: lower-tc %s --split-input-file -p tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors -t mlir | filecheck %s

func.func @sm100_tf32_k_none_n24_k8() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x8xtf32, #tc.layout<k, swizzle = none>>
  %b = tc.smem_tile : !tc.tile<24x8xtf32, #tc.layout<k, swizzle = none>>
  %acc = tc.acc_zero : !tc.acc<128x24xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x8xtf32, #tc.layout<k, swizzle = none>>, !tc.tile<24x8xtf32, #tc.layout<k, swizzle = none>>, !tc.acc<128x24xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_tf32_k_none_n24_k8(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x8xtf32, #tc.layout<k, swizzle = none, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<24x8xtf32, #tc.layout<k, swizzle = none, offset = 4096>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x24xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800000>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x1000, lbo = 384, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800180100>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = tf32, a = tf32, b = tf32, d = f32, m = 128, n = 24, a_major = k, b_major = k, value = 0x08060910>} :
// -----
// B pinned at 32816
func.func @sm100_tf32_k_none_n128_k32_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x32xtf32, #tc.layout<k, swizzle = none, order = k_first>>
  %b = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<k, swizzle = none, order = k_first, offset = 32816>>
  %acc = tc.acc_zero : !tc.acc<64x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x32xtf32, #tc.layout<k, swizzle = none, order = k_first>>, !tc.tile<128x32xtf32, #tc.layout<k, swizzle = none, order = k_first, offset = 32816>>, !tc.acc<64x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_tf32_k_none_n128_k32_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x32xtf32, #tc.layout<k, swizzle = none, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<k, swizzle = none, order = k_first, offset = 32816>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x128xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080000>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x100, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080010>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x200, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080020>
// CHECK-SAME: , #tc.desc<k = 24, start = 0x300, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080030>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8030, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080803>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x8130, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080813>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x8230, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080823>
// CHECK-SAME: , #tc.desc<k = 24, start = 0x8330, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080833>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = tf32, a = tf32, b = tf32, d = f32, m = 64, n = 128, a_major = k, b_major = k, value = 0x04200910>} :
// -----
func.func @sm100_tf32_k_32b_n24_k8() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x8xtf32, #tc.layout<k, swizzle = 32b>>
  %b = tc.smem_tile : !tc.tile<24x8xtf32, #tc.layout<k, swizzle = 32b>>
  %acc = tc.acc_zero : !tc.acc<128x24xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x8xtf32, #tc.layout<k, swizzle = 32b>>, !tc.tile<24x8xtf32, #tc.layout<k, swizzle = 32b>>, !tc.acc<128x24xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_tf32_k_32b_n24_k8(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x8xtf32, #tc.layout<k, swizzle = 32b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<24x8xtf32, #tc.layout<k, swizzle = 32b, offset = 4096>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x24xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401000010000>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x1000, lbo = 16, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401000010100>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = tf32, a = tf32, b = tf32, d = f32, m = 128, n = 24, a_major = k, b_major = k, value = 0x08060910>} :
// -----
// B pinned at 34816
func.func @sm100_tf32_k_32b_n128_k24_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x24xtf32, #tc.layout<k, swizzle = 32b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<128x24xtf32, #tc.layout<k, swizzle = 32b, order = k_first, offset = 34816>>
  %acc = tc.acc_zero : !tc.acc<64x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x24xtf32, #tc.layout<k, swizzle = 32b, order = k_first>>, !tc.tile<128x24xtf32, #tc.layout<k, swizzle = 32b, order = k_first, offset = 34816>>, !tc.acc<64x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_tf32_k_32b_n128_k24_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x24xtf32, #tc.layout<k, swizzle = 32b, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x24xtf32, #tc.layout<k, swizzle = 32b, order = k_first, offset = 34816>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x128xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000403000010000>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x100, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000403000010010>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x200, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000403000010020>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8800, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000403000010880>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x8900, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000403000010890>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x8a00, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc0004030000108a0>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = tf32, a = tf32, b = tf32, d = f32, m = 64, n = 128, a_major = k, b_major = k, value = 0x04200910>} :
// -----
func.func @sm100_tf32_k_64b_n24_k16() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x16xtf32, #tc.layout<k, swizzle = 64b>>
  %b = tc.smem_tile : !tc.tile<24x16xtf32, #tc.layout<k, swizzle = 64b>>
  %acc = tc.acc_zero : !tc.acc<128x24xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x16xtf32, #tc.layout<k, swizzle = 64b>>, !tc.tile<24x16xtf32, #tc.layout<k, swizzle = 64b>>, !tc.acc<128x24xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_tf32_k_64b_n24_k16(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x16xtf32, #tc.layout<k, swizzle = 64b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<24x16xtf32, #tc.layout<k, swizzle = 64b, offset = 8192>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x24xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402000010000>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x20, lbo = 16, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402000010002>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x2000, lbo = 16, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402000010200>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x2020, lbo = 16, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402000010202>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = tf32, a = tf32, b = tf32, d = f32, m = 128, n = 24, a_major = k, b_major = k, value = 0x08060910>} :
// -----
// B pinned at 33792
func.func @sm100_tf32_k_64b_n128_k32_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x32xtf32, #tc.layout<k, swizzle = 64b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<k, swizzle = 64b, order = k_first, offset = 33792>>
  %acc = tc.acc_zero : !tc.acc<64x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x32xtf32, #tc.layout<k, swizzle = 64b, order = k_first>>, !tc.tile<128x32xtf32, #tc.layout<k, swizzle = 64b, order = k_first, offset = 33792>>, !tc.acc<64x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_tf32_k_64b_n128_k32_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x32xtf32, #tc.layout<k, swizzle = 64b, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<k, swizzle = 64b, order = k_first, offset = 33792>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x128xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010000>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010002>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x200, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010020>
// CHECK-SAME: , #tc.desc<k = 24, start = 0x220, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010022>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8400, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010840>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x8420, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010842>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x8600, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010860>
// CHECK-SAME: , #tc.desc<k = 24, start = 0x8620, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010862>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = tf32, a = tf32, b = tf32, d = f32, m = 64, n = 128, a_major = k, b_major = k, value = 0x04200910>} :
// -----
func.func @sm100_tf32_k_128b_n24_k32() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<k, swizzle = 128b>>
  %b = tc.smem_tile : !tc.tile<24x32xtf32, #tc.layout<k, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<128x24xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x32xtf32, #tc.layout<k, swizzle = 128b>>, !tc.tile<24x32xtf32, #tc.layout<k, swizzle = 128b>>, !tc.acc<128x24xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_tf32_k_128b_n24_k32(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<k, swizzle = 128b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<24x32xtf32, #tc.layout<k, swizzle = 128b, offset = 16384>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x24xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010000>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010002>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x40, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010004>
// CHECK-SAME: , #tc.desc<k = 24, start = 0x60, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010006>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x4000, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010400>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x4020, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010402>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x4040, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010404>
// CHECK-SAME: , #tc.desc<k = 24, start = 0x4060, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010406>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = tf32, a = tf32, b = tf32, d = f32, m = 128, n = 24, a_major = k, b_major = k, value = 0x08060910>} :
// -----
// B pinned at 35840
func.func @sm100_tf32_k_128b_n128_k32_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x32xtf32, #tc.layout<k, swizzle = 128b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<k, swizzle = 128b, order = k_first, offset = 35840>>
  %acc = tc.acc_zero : !tc.acc<64x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x32xtf32, #tc.layout<k, swizzle = 128b, order = k_first>>, !tc.tile<128x32xtf32, #tc.layout<k, swizzle = 128b, order = k_first, offset = 35840>>, !tc.acc<64x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_tf32_k_128b_n128_k32_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x32xtf32, #tc.layout<k, swizzle = 128b, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<k, swizzle = 128b, order = k_first, offset = 35840>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x128xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010000>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010002>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x40, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010004>
// CHECK-SAME: , #tc.desc<k = 24, start = 0x60, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010006>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8c00, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x40004040000108c0>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x8c20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x40004040000108c2>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x8c40, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x40004040000108c4>
// CHECK-SAME: , #tc.desc<k = 24, start = 0x8c60, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x40004040000108c6>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = tf32, a = tf32, b = tf32, d = f32, m = 64, n = 128, a_major = k, b_major = k, value = 0x04200910>} :
// -----
func.func @sm100_tf32_mn_128b_base32b_n32_k16() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x16xtf32, #tc.layout<mn, swizzle = 128b_base32b>>
  %b = tc.smem_tile : !tc.tile<32x16xtf32, #tc.layout<mn, swizzle = 128b_base32b>>
  %acc = tc.acc_zero : !tc.acc<128x32xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x16xtf32, #tc.layout<mn, swizzle = 128b_base32b>>, !tc.tile<32x16xtf32, #tc.layout<mn, swizzle = 128b_base32b>>, !tc.acc<128x32xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_tf32_mn_128b_base32b_n32_k16(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x16xtf32, #tc.layout<mn, swizzle = 128b_base32b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<32x16xtf32, #tc.layout<mn, swizzle = 128b_base32b, offset = 8192>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x32xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 512, sbo = 2048, base_offset = 0, swizzle = 128b_base32b, value = 0x2000408000200000>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x1000, lbo = 512, sbo = 2048, base_offset = 0, swizzle = 128b_base32b, value = 0x2000408000200100>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x2000, lbo = 512, sbo = 512, base_offset = 0, swizzle = 128b_base32b, value = 0x2000402000200200>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x2400, lbo = 512, sbo = 512, base_offset = 0, swizzle = 128b_base32b, value = 0x2000402000200240>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = tf32, a = tf32, b = tf32, d = f32, m = 128, n = 32, a_major = mn, b_major = mn, value = 0x08098910>} :
// -----
// B pinned at 34816
func.func @sm100_tf32_mn_128b_base32b_n64_k24_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x24xtf32, #tc.layout<mn, swizzle = 128b_base32b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<64x24xtf32, #tc.layout<mn, swizzle = 128b_base32b, order = k_first, offset = 34816>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x24xtf32, #tc.layout<mn, swizzle = 128b_base32b, order = k_first>>, !tc.tile<64x24xtf32, #tc.layout<mn, swizzle = 128b_base32b, order = k_first, offset = 34816>>, !tc.acc<64x64xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_tf32_mn_128b_base32b_n64_k24_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x24xtf32, #tc.layout<mn, swizzle = 128b_base32b, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<64x24xtf32, #tc.layout<mn, swizzle = 128b_base32b, order = k_first, offset = 34816>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x64xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 3072, sbo = 512, base_offset = 0, swizzle = 128b_base32b, value = 0x2000402000c00000>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x400, lbo = 3072, sbo = 512, base_offset = 0, swizzle = 128b_base32b, value = 0x2000402000c00040>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x800, lbo = 3072, sbo = 512, base_offset = 0, swizzle = 128b_base32b, value = 0x2000402000c00080>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8800, lbo = 3072, sbo = 512, base_offset = 0, swizzle = 128b_base32b, value = 0x2000402000c00880>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x8c00, lbo = 3072, sbo = 512, base_offset = 0, swizzle = 128b_base32b, value = 0x2000402000c008c0>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x9000, lbo = 3072, sbo = 512, base_offset = 0, swizzle = 128b_base32b, value = 0x2000402000c00900>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = tf32, a = tf32, b = tf32, d = f32, m = 64, n = 64, a_major = mn, b_major = mn, value = 0x04118910>} :
// -----
// spec worked example: tf32 K-major none, 16x16 (B tile): LBO 256, SBO 128
func.func @sm100_tf32_k_none_spec_16x16() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x16xtf32, #tc.layout<k, swizzle = none>>
  %b = tc.smem_tile : !tc.tile<16x16xtf32, #tc.layout<k, swizzle = none>>
  %acc = tc.acc_zero : !tc.acc<128x16xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x16xtf32, #tc.layout<k, swizzle = none>>, !tc.tile<16x16xtf32, #tc.layout<k, swizzle = none>>, !tc.acc<128x16xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_tf32_k_none_spec_16x16(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x16xtf32, #tc.layout<k, swizzle = none, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<16x16xtf32, #tc.layout<k, swizzle = none, offset = 8192>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x16xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800000>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x1000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800100>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x2000, lbo = 256, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800100200>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x2200, lbo = 256, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800100220>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = tf32, a = tf32, b = tf32, d = f32, m = 128, n = 16, a_major = k, b_major = k, value = 0x08040910>} :
// -----
// spec worked example: tf32 K-major 32b, 16x16 (B tile): LBO 16, SBO 256
func.func @sm100_tf32_k_32b_spec_16x16() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x16xtf32, #tc.layout<k, swizzle = 32b>>
  %b = tc.smem_tile : !tc.tile<16x16xtf32, #tc.layout<k, swizzle = 32b>>
  %acc = tc.acc_zero : !tc.acc<128x16xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x16xtf32, #tc.layout<k, swizzle = 32b>>, !tc.tile<16x16xtf32, #tc.layout<k, swizzle = 32b>>, !tc.acc<128x16xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_tf32_k_32b_spec_16x16(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x16xtf32, #tc.layout<k, swizzle = 32b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<16x16xtf32, #tc.layout<k, swizzle = 32b, offset = 8192>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x16xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401000010000>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x1000, lbo = 16, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401000010100>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x2000, lbo = 16, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401000010200>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x2200, lbo = 16, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401000010220>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = tf32, a = tf32, b = tf32, d = f32, m = 128, n = 16, a_major = k, b_major = k, value = 0x08040910>} :
// -----
// A MN-major, B K-major
func.func @sm100_tf32_Amn_Bk_128b() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<mn, swizzle = 128b_base32b>>
  %b = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<k, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<128x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x32xtf32, #tc.layout<mn, swizzle = 128b_base32b>>, !tc.tile<128x32xtf32, #tc.layout<k, swizzle = 128b>>, !tc.acc<128x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_tf32_Amn_Bk_128b(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<mn, swizzle = 128b_base32b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<k, swizzle = 128b, offset = 16384>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x128xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 512, sbo = 2048, base_offset = 0, swizzle = 128b_base32b, value = 0x2000408000200000>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x1000, lbo = 512, sbo = 2048, base_offset = 0, swizzle = 128b_base32b, value = 0x2000408000200100>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x2000, lbo = 512, sbo = 2048, base_offset = 0, swizzle = 128b_base32b, value = 0x2000408000200200>
// CHECK-SAME: , #tc.desc<k = 24, start = 0x3000, lbo = 512, sbo = 2048, base_offset = 0, swizzle = 128b_base32b, value = 0x2000408000200300>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x4000, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010400>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x4020, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010402>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x4040, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010404>
// CHECK-SAME: , #tc.desc<k = 24, start = 0x4060, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010406>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = tf32, a = tf32, b = tf32, d = f32, m = 128, n = 128, a_major = mn, b_major = k, value = 0x08208910>} :
// -----
// A K-major, B MN-major
func.func @sm100_tf32_Ak_Bmn_128b() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<k, swizzle = 128b>>
  %b = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<mn, swizzle = 128b_base32b>>
  %acc = tc.acc_zero : !tc.acc<128x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x32xtf32, #tc.layout<k, swizzle = 128b>>, !tc.tile<128x32xtf32, #tc.layout<mn, swizzle = 128b_base32b>>, !tc.acc<128x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_tf32_Ak_Bmn_128b(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<k, swizzle = 128b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<mn, swizzle = 128b_base32b, offset = 16384>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x128xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010000>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010002>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x40, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010004>
// CHECK-SAME: , #tc.desc<k = 24, start = 0x60, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010006>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x4000, lbo = 512, sbo = 2048, base_offset = 0, swizzle = 128b_base32b, value = 0x2000408000200400>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x5000, lbo = 512, sbo = 2048, base_offset = 0, swizzle = 128b_base32b, value = 0x2000408000200500>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x6000, lbo = 512, sbo = 2048, base_offset = 0, swizzle = 128b_base32b, value = 0x2000408000200600>
// CHECK-SAME: , #tc.desc<k = 24, start = 0x7000, lbo = 512, sbo = 2048, base_offset = 0, swizzle = 128b_base32b, value = 0x2000408000200700>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = tf32, a = tf32, b = tf32, d = f32, m = 128, n = 128, a_major = k, b_major = mn, value = 0x08210910>} :
// -----
// A MN-major, B K-major
func.func @sm100_tf32_Amn_Bk_none() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<mn, swizzle = 128b_base32b>>
  %b = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<k, swizzle = none>>
  %acc = tc.acc_zero : !tc.acc<128x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x32xtf32, #tc.layout<mn, swizzle = 128b_base32b>>, !tc.tile<128x32xtf32, #tc.layout<k, swizzle = none>>, !tc.acc<128x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_tf32_Amn_Bk_none(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<mn, swizzle = 128b_base32b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<k, swizzle = none, offset = 16384>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x128xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 512, sbo = 2048, base_offset = 0, swizzle = 128b_base32b, value = 0x2000408000200000>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x1000, lbo = 512, sbo = 2048, base_offset = 0, swizzle = 128b_base32b, value = 0x2000408000200100>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x2000, lbo = 512, sbo = 2048, base_offset = 0, swizzle = 128b_base32b, value = 0x2000408000200200>
// CHECK-SAME: , #tc.desc<k = 24, start = 0x3000, lbo = 512, sbo = 2048, base_offset = 0, swizzle = 128b_base32b, value = 0x2000408000200300>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x4000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800400>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x5000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800500>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x6000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800600>
// CHECK-SAME: , #tc.desc<k = 24, start = 0x7000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800700>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = tf32, a = tf32, b = tf32, d = f32, m = 128, n = 128, a_major = mn, b_major = k, value = 0x08208910>} :
// -----
// A K-major, B MN-major
func.func @sm100_tf32_Ak_Bmn_none() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<k, swizzle = none>>
  %b = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<mn, swizzle = 128b_base32b>>
  %acc = tc.acc_zero : !tc.acc<128x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x32xtf32, #tc.layout<k, swizzle = none>>, !tc.tile<128x32xtf32, #tc.layout<mn, swizzle = 128b_base32b>>, !tc.acc<128x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_tf32_Ak_Bmn_none(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<k, swizzle = none, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<mn, swizzle = 128b_base32b, offset = 16384>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x128xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800000>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x1000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800100>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x2000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800200>
// CHECK-SAME: , #tc.desc<k = 24, start = 0x3000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800300>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x4000, lbo = 512, sbo = 2048, base_offset = 0, swizzle = 128b_base32b, value = 0x2000408000200400>
// CHECK-SAME: , #tc.desc<k = 8, start = 0x5000, lbo = 512, sbo = 2048, base_offset = 0, swizzle = 128b_base32b, value = 0x2000408000200500>
// CHECK-SAME: , #tc.desc<k = 16, start = 0x6000, lbo = 512, sbo = 2048, base_offset = 0, swizzle = 128b_base32b, value = 0x2000408000200600>
// CHECK-SAME: , #tc.desc<k = 24, start = 0x7000, lbo = 512, sbo = 2048, base_offset = 0, swizzle = 128b_base32b, value = 0x2000408000200700>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = tf32, a = tf32, b = tf32, d = f32, m = 128, n = 128, a_major = k, b_major = mn, value = 0x08210910>} :
