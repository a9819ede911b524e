// GENERATED FILE -- do not edit. Regenerate with:
//   .venv/bin/python filecheck/gen_descriptor_pins.py
// Pinned descriptors for e2m3 on sm_100a, tc.tcgen05_mma (M = 128 and 64, with #tc.idesc): 9 kernels, 54 #tc.desc values.
// Every value was checked by the generator against lower_tc.layout.emulate_reads
// (what the tensor core reads) == TileLayout.addresses (where the data is).
// RUN: lower-tc %s --split-input-file -p tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors -t mlir | filecheck %s

func.func @sm100_e2m3_k_none_n24_k32() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x32xf6E2M3FN, #tc.layout<k, swizzle = none>>
  %b = tc.smem_tile : !tc.tile<24x32xf6E2M3FN, #tc.layout<k, swizzle = none>>
  %acc = tc.acc_zero : !tc.acc<128x24xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x32xf6E2M3FN, #tc.layout<k, swizzle = none>>, !tc.tile<24x32xf6E2M3FN, #tc.layout<k, swizzle = none>>, !tc.acc<128x24xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_e2m3_k_none_n24_k32(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x32xf6E2M3FN, #tc.layout<k, swizzle = none, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<24x32xf6E2M3FN, #tc.layout<k, swizzle = none, offset = 4096>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x24xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800000>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x1000, lbo = 384, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800180100>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f8f6f4, a = e2m3, b = e2m3, d = f32, m = 128, n = 24, a_major = k, b_major = k, value = 0x08060d90>} :
// -----
// B pinned at 32816
func.func @sm100_e2m3_k_none_n128_k128_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x128xf6E2M3FN, #tc.layout<k, swizzle = none, order = k_first>>
  %b = tc.smem_tile : !tc.tile<128x128xf6E2M3FN, #tc.layout<k, swizzle = none, order = k_first, offset = 32816>>
  %acc = tc.acc_zero : !tc.acc<64x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x128xf6E2M3FN, #tc.layout<k, swizzle = none, order = k_first>>, !tc.tile<128x128xf6E2M3FN, #tc.layout<k, swizzle = none, order = k_first, offset = 32816>>, !tc.acc<64x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_e2m3_k_none_n128_k128_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x128xf6E2M3FN, #tc.layout<k, swizzle = none, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x128xf6E2M3FN, #tc.layout<k, swizzle = none, order = k_first, offset = 32816>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x128xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x100, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080010>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x200, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080020>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x300, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080030>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8030, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080803>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x8130, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080813>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x8230, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080823>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x8330, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000404000080833>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f8f6f4, a = e2m3, b = e2m3, d = f32, m = 64, n = 128, a_major = k, b_major = k, value = 0x04200d90>} :
// -----
func.func @sm100_e2m3_k_32b_n24_k32() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x32xf6E2M3FN, #tc.layout<k, swizzle = 32b>>
  %b = tc.smem_tile : !tc.tile<24x32xf6E2M3FN, #tc.layout<k, swizzle = 32b>>
  %acc = tc.acc_zero : !tc.acc<128x24xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x32xf6E2M3FN, #tc.layout<k, swizzle = 32b>>, !tc.tile<24x32xf6E2M3FN, #tc.layout<k, swizzle = 32b>>, !tc.acc<128x24xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_e2m3_k_32b_n24_k32(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x32xf6E2M3FN, #tc.layout<k, swizzle = 32b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<24x32xf6E2M3FN, #tc.layout<k, swizzle = 32b, offset = 4096>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x24xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401000010000>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x1000, lbo = 16, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401000010100>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f8f6f4, a = e2m3, b = e2m3, d = f32, m = 128, n = 24, a_major = k, b_major = k, value = 0x08060d90>} :
// -----
// B pinned at 34816
func.func @sm100_e2m3_k_32b_n128_k96_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x96xf6E2M3FN, #tc.layout<k, swizzle = 32b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<128x96xf6E2M3FN, #tc.layout<k, swizzle = 32b, order = k_first, offset = 34816>>
  %acc = tc.acc_zero : !tc.acc<64x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x96xf6E2M3FN, #tc.layout<k, swizzle = 32b, order = k_first>>, !tc.tile<128x96xf6E2M3FN, #tc.layout<k, swizzle = 32b, order = k_first, offset = 34816>>, !tc.acc<64x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_e2m3_k_32b_n128_k96_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x96xf6E2M3FN, #tc.layout<k, swizzle = 32b, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x96xf6E2M3FN, #tc.layout<k, swizzle = 32b, order = k_first, offset = 34816>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x128xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000403000010000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x100, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000403000010010>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x200, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000403000010020>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8800, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000403000010880>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x8900, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000403000010890>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x8a00, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc0004030000108a0>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f8f6f4, a = e2m3, b = e2m3, d = f32, m = 64, n = 128, a_major = k, b_major = k, value = 0x04200d90>} :
// -----
func.func @sm100_e2m3_k_64b_n24_k64() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xf6E2M3FN, #tc.layout<k, swizzle = 64b>>
  %b = tc.smem_tile : !tc.tile<24x64xf6E2M3FN, #tc.layout<k, swizzle = 64b>>
  %acc = tc.acc_zero : !tc.acc<128x24xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xf6E2M3FN, #tc.layout<k, swizzle = 64b>>, !tc.tile<24x64xf6E2M3FN, #tc.layout<k, swizzle = 64b>>, !tc.acc<128x24xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_e2m3_k_64b_n24_k64(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x64xf6E2M3FN, #tc.layout<k, swizzle = 64b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<24x64xf6E2M3FN, #tc.layout<k, swizzle = 64b, offset = 8192>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x24xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402000010000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x20, lbo = 16, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402000010002>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x2000, lbo = 16, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402000010200>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x2020, lbo = 16, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402000010202>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f8f6f4, a = e2m3, b = e2m3, d = f32, m = 128, n = 24, a_major = k, b_major = k, value = 0x08060d90>} :
// -----
// B pinned at 33792
func.func @sm100_e2m3_k_64b_n128_k128_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x128xf6E2M3FN, #tc.layout<k, swizzle = 64b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<128x128xf6E2M3FN, #tc.layout<k, swizzle = 64b, order = k_first, offset = 33792>>
  %acc = tc.acc_zero : !tc.acc<64x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x128xf6E2M3FN, #tc.layout<k, swizzle = 64b, order = k_first>>, !tc.tile<128x128xf6E2M3FN, #tc.layout<k, swizzle = 64b, order = k_first, offset = 33792>>, !tc.acc<64x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_e2m3_k_64b_n128_k128_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x128xf6E2M3FN, #tc.layout<k, swizzle = 64b, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x128xf6E2M3FN, #tc.layout<k, swizzle = 64b, order = k_first, offset = 33792>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x128xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010002>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x200, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010020>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x220, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010022>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8400, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010840>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x8420, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010842>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x8600, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010860>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x8620, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010862>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f8f6f4, a = e2m3, b = e2m3, d = f32, m = 64, n = 128, a_major = k, b_major = k, value = 0x04200d90>} :
// -----
func.func @sm100_e2m3_k_128b_n24_k128() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x128xf6E2M3FN, #tc.layout<k, swizzle = 128b>>
  %b = tc.smem_tile : !tc.tile<24x128xf6E2M3FN, #tc.layout<k, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<128x24xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x128xf6E2M3FN, #tc.layout<k, swizzle = 128b>>, !tc.tile<24x128xf6E2M3FN, #tc.layout<k, swizzle = 128b>>, !tc.acc<128x24xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_e2m3_k_128b_n24_k128(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x128xf6E2M3FN, #tc.layout<k, swizzle = 128b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<24x128xf6E2M3FN, #tc.layout<k, swizzle = 128b, offset = 16384>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x24xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010002>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x40, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010004>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x60, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010006>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x4000, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010400>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x4020, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010402>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x4040, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010404>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x4060, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010406>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f8f6f4, a = e2m3, b = e2m3, d = f32, m = 128, n = 24, a_major = k, b_major = k, value = 0x08060d90>} :
// -----
// B pinned at 35840
func.func @sm100_e2m3_k_128b_n128_k128_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x128xf6E2M3FN, #tc.layout<k, swizzle = 128b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<128x128xf6E2M3FN, #tc.layout<k, swizzle = 128b, order = k_first, offset = 35840>>
  %acc = tc.acc_zero : !tc.acc<64x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x128xf6E2M3FN, #tc.layout<k, swizzle = 128b, order = k_first>>, !tc.tile<128x128xf6E2M3FN, #tc.layout<k, swizzle = 128b, order = k_first, offset = 35840>>, !tc.acc<64x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_e2m3_k_128b_n128_k128_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x128xf6E2M3FN, #tc.layout<k, swizzle = 128b, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x128xf6E2M3FN, #tc.layout<k, swizzle = 128b, order = k_first, offset = 35840>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x128xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010002>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x40, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010004>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x60, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010006>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8c00, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x40004040000108c0>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x8c20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x40004040000108c2>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x8c40, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x40004040000108c4>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x8c60, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x40004040000108c6>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f8f6f4, a = e2m3, b = e2m3, d = f32, m = 64, n = 128, a_major = k, b_major = k, value = 0x04200d90>} :
// -----
// A e2m3, B e3m2
func.func @sm100_e2m3xe3m2_k_128b() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x128xf6E2M3FN, #tc.layout<k, swizzle = 128b>>
  %b = tc.smem_tile : !tc.tile<64x128xf6E3M2FN, #tc.layout<k, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x128xf6E2M3FN, #tc.layout<k, swizzle = 128b>>, !tc.tile<64x128xf6E3M2FN, #tc.layout<k, swizzle = 128b>>, !tc.acc<128x64xf32>
  func.return
}
// CHECK-LABEL: func.func @sm100_e2m3xe3m2_k_128b(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x128xf6E2M3FN, #tc.layout<k, swizzle = 128b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<64x128xf6E3M2FN, #tc.layout<k, swizzle = 128b, offset = 16384>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x64xf32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010002>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x40, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010004>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x60, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010006>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x4000, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010400>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x4020, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010402>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x4040, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010404>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x4060, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010406>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = f8f6f4, a = e2m3, b = e3m2, d = f32, m = 128, n = 64, a_major = k, b_major = k, value = 0x08101190>} :
