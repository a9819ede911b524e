// GENERATED FILE -- do not edit. Regenerate with:
//   .venv/bin/python filecheck/gen_descriptor_pins.py
// Pinned descriptors for u8 on sm_100a, tc.tcgen05_mma (M = 128 and 64, with #tc.idesc): 21 kernels, 122 #tc.desc values.
// Every value was checked by the generator against lower_tc.layout.emulate_reads
// (what the tensor core reads) == TileLayout.addresses (where the data is).
// RUN: lower-tc %s --split-input-file -p tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors -t mlir | filecheck %s

func.func @sm100_u8_k_none_n24_k32() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x32xui8, #tc.layout<k, swizzle = none>>
  %b = tc.smem_tile : !tc.tile<24x32xui8, #tc.layout<k, swizzle = none>>
  %acc = tc.acc_zero : !tc.acc<128x24xi32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x32xui8, #tc.layout<k, swizzle = none>>, !tc.tile<24x32xui8, #tc.layout<k, swizzle = none>>, !tc.acc<128x24xi32>
  func.return
}
// CHECK-LABEL: func.func @sm100_u8_k_none_n24_k32(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x32xui8, #tc.layout<k, swizzle = none, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<24x32xui8, #tc.layout<k, swizzle = none, offset = 4096>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x24xi32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800000>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x1000, lbo = 384, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800180100>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = i8, a = u8, b = u8, d = s32, m = 128, n = 24, a_major = k, b_major = k, value = 0x08060020>} :
// -----
// B pinned at 32816
func.func @sm100_u8_k_none_n128_k128_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x128xui8, #tc.layout<k, swizzle = none, order = k_first>>
  %b = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<k, swizzle = none, order = k_first, offset = 32816>>
  %acc = tc.acc_zero : !tc.acc<64x128xi32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x128xui8, #tc.layout<k, swizzle = none, order = k_first>>, !tc.tile<128x128xui8, #tc.layout<k, swizzle = none, order = k_first, offset = 32816>>, !tc.acc<64x128xi32>
  func.return
}
// CHECK-LABEL: func.func @sm100_u8_k_none_n128_k128_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x128xui8, #tc.layout<k, swizzle = none, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<k, swizzle = none, order = k_first, offset = 32816>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x128xi32>
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
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = i8, a = u8, b = u8, d = s32, m = 64, n = 128, a_major = k, b_major = k, value = 0x04200020>} :
// -----
func.func @sm100_u8_k_32b_n24_k32() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x32xui8, #tc.layout<k, swizzle = 32b>>
  %b = tc.smem_tile : !tc.tile<24x32xui8, #tc.layout<k, swizzle = 32b>>
  %acc = tc.acc_zero : !tc.acc<128x24xi32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x32xui8, #tc.layout<k, swizzle = 32b>>, !tc.tile<24x32xui8, #tc.layout<k, swizzle = 32b>>, !tc.acc<128x24xi32>
  func.return
}
// CHECK-LABEL: func.func @sm100_u8_k_32b_n24_k32(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x32xui8, #tc.layout<k, swizzle = 32b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<24x32xui8, #tc.layout<k, swizzle = 32b, offset = 4096>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x24xi32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401000010000>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x1000, lbo = 16, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401000010100>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = i8, a = u8, b = u8, d = s32, m = 128, n = 24, a_major = k, b_major = k, value = 0x08060020>} :
// -----
// B pinned at 35840
func.func @sm100_u8_k_32b_n128_k96_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x96xui8, #tc.layout<k, swizzle = 32b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<128x96xui8, #tc.layout<k, swizzle = 32b, order = k_first, offset = 35840>>
  %acc = tc.acc_zero : !tc.acc<64x128xi32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x96xui8, #tc.layout<k, swizzle = 32b, order = k_first>>, !tc.tile<128x96xui8, #tc.layout<k, swizzle = 32b, order = k_first, offset = 35840>>, !tc.acc<64x128xi32>
  func.return
}
// CHECK-LABEL: func.func @sm100_u8_k_32b_n128_k96_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x96xui8, #tc.layout<k, swizzle = 32b, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x96xui8, #tc.layout<k, swizzle = 32b, order = k_first, offset = 35840>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x128xi32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000403000010000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x100, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000403000010010>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x200, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000403000010020>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8c00, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc0004030000108c0>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x8d00, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc0004030000108d0>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x8e00, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc0004030000108e0>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = i8, a = u8, b = u8, d = s32, m = 64, n = 128, a_major = k, b_major = k, value = 0x04200020>} :
// -----
func.func @sm100_u8_k_64b_n24_k64() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xui8, #tc.layout<k, swizzle = 64b>>
  %b = tc.smem_tile : !tc.tile<24x64xui8, #tc.layout<k, swizzle = 64b>>
  %acc = tc.acc_zero : !tc.acc<128x24xi32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xui8, #tc.layout<k, swizzle = 64b>>, !tc.tile<24x64xui8, #tc.layout<k, swizzle = 64b>>, !tc.acc<128x24xi32>
  func.return
}
// CHECK-LABEL: func.func @sm100_u8_k_64b_n24_k64(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x64xui8, #tc.layout<k, swizzle = 64b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<24x64xui8, #tc.layout<k, swizzle = 64b, offset = 8192>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x24xi32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402000010000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x20, lbo = 16, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402000010002>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x2000, lbo = 16, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402000010200>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x2020, lbo = 16, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402000010202>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = i8, a = u8, b = u8, d = s32, m = 128, n = 24, a_major = k, b_major = k, value = 0x08060020>} :
// -----
// B pinned at 34816
func.func @sm100_u8_k_64b_n128_k128_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x128xui8, #tc.layout<k, swizzle = 64b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<k, swizzle = 64b, order = k_first, offset = 34816>>
  %acc = tc.acc_zero : !tc.acc<64x128xi32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x128xui8, #tc.layout<k, swizzle = 64b, order = k_first>>, !tc.tile<128x128xui8, #tc.layout<k, swizzle = 64b, order = k_first, offset = 34816>>, !tc.acc<64x128xi32>
  func.return
}
// CHECK-LABEL: func.func @sm100_u8_k_64b_n128_k128_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x128xui8, #tc.layout<k, swizzle = 64b, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<k, swizzle = 64b, order = k_first, offset = 34816>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x128xi32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010002>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x200, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010020>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x220, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010022>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8800, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010880>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x8820, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000010882>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x8a00, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x80004040000108a0>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x8a20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x80004040000108a2>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = i8, a = u8, b = u8, d = s32, m = 64, n = 128, a_major = k, b_major = k, value = 0x04200020>} :
// -----
func.func @sm100_u8_k_128b_n24_k128() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<k, swizzle = 128b>>
  %b = tc.smem_tile : !tc.tile<24x128xui8, #tc.layout<k, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<128x24xi32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x128xui8, #tc.layout<k, swizzle = 128b>>, !tc.tile<24x128xui8, #tc.layout<k, swizzle = 128b>>, !tc.acc<128x24xi32>
  func.return
}
// CHECK-LABEL: func.func @sm100_u8_k_128b_n24_k128(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<k, swizzle = 128b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<24x128xui8, #tc.layout<k, swizzle = 128b, offset = 16384>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x24xi32>
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
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = i8, a = u8, b = u8, d = s32, m = 128, n = 24, a_major = k, b_major = k, value = 0x08060020>} :
// -----
// B pinned at 33792
func.func @sm100_u8_k_128b_n128_k128_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x128xui8, #tc.layout<k, swizzle = 128b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<k, swizzle = 128b, order = k_first, offset = 33792>>
  %acc = tc.acc_zero : !tc.acc<64x128xi32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x128xui8, #tc.layout<k, swizzle = 128b, order = k_first>>, !tc.tile<128x128xui8, #tc.layout<k, swizzle = 128b, order = k_first, offset = 33792>>, !tc.acc<64x128xi32>
  func.return
}
// CHECK-LABEL: func.func @sm100_u8_k_128b_n128_k128_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x128xui8, #tc.layout<k, swizzle = 128b, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<k, swizzle = 128b, order = k_first, offset = 33792>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x128xi32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010002>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x40, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010004>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x60, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010006>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8400, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010840>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x8420, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010842>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x8440, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010844>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x8460, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010846>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = i8, a = u8, b = u8, d = s32, m = 64, n = 128, a_major = k, b_major = k, value = 0x04200020>} :
// -----
func.func @sm100_u8_mn_none_n16_k32() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x32xui8, #tc.layout<mn, swizzle = none>>
  %b = tc.smem_tile : !tc.tile<16x32xui8, #tc.layout<mn, swizzle = none>>
  %acc = tc.acc_zero : !tc.acc<128x16xi32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x32xui8, #tc.layout<mn, swizzle = none>>, !tc.tile<16x32xui8, #tc.layout<mn, swizzle = none>>, !tc.acc<128x16xi32>
  func.return
}
// CHECK-LABEL: func.func @sm100_u8_mn_none_n16_k32(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x32xui8, #tc.layout<mn, swizzle = none, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<16x32xui8, #tc.layout<mn, swizzle = none, offset = 4096>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x16xi32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 1024, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800400000>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x1000, lbo = 128, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800080100>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = i8, a = u8, b = u8, d = s32, m = 128, n = 16, a_major = mn, b_major = mn, value = 0x08058020>} :
// -----
// B pinned at 32816
func.func @sm100_u8_mn_none_n32_k96_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x96xui8, #tc.layout<mn, swizzle = none, order = k_first>>
  %b = tc.smem_tile : !tc.tile<32x96xui8, #tc.layout<mn, swizzle = none, order = k_first, offset = 32816>>
  %acc = tc.acc_zero : !tc.acc<64x32xi32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x96xui8, #tc.layout<mn, swizzle = none, order = k_first>>, !tc.tile<32x96xui8, #tc.layout<mn, swizzle = none, order = k_first, offset = 32816>>, !tc.acc<64x32xi32>
  func.return
}
// CHECK-LABEL: func.func @sm100_u8_mn_none_n32_k96_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x96xui8, #tc.layout<mn, swizzle = none, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<32x96xui8, #tc.layout<mn, swizzle = none, order = k_first, offset = 32816>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x32xi32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 128, sbo = 1536, base_offset = 0, swizzle = none, value = 0x0000406000080000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x200, lbo = 128, sbo = 1536, base_offset = 0, swizzle = none, value = 0x0000406000080020>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x400, lbo = 128, sbo = 1536, base_offset = 0, swizzle = none, value = 0x0000406000080040>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8030, lbo = 128, sbo = 1536, base_offset = 0, swizzle = none, value = 0x0000406000080803>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x8230, lbo = 128, sbo = 1536, base_offset = 0, swizzle = none, value = 0x0000406000080823>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x8430, lbo = 128, sbo = 1536, base_offset = 0, swizzle = none, value = 0x0000406000080843>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = i8, a = u8, b = u8, d = s32, m = 64, n = 32, a_major = mn, b_major = mn, value = 0x04098020>} :
// -----
func.func @sm100_u8_mn_32b_n32_k64() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xui8, #tc.layout<mn, swizzle = 32b>>
  %b = tc.smem_tile : !tc.tile<32x64xui8, #tc.layout<mn, swizzle = 32b>>
  %acc = tc.acc_zero : !tc.acc<128x32xi32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xui8, #tc.layout<mn, swizzle = 32b>>, !tc.tile<32x64xui8, #tc.layout<mn, swizzle = 32b>>, !tc.acc<128x32xi32>
  func.return
}
// CHECK-LABEL: func.func @sm100_u8_mn_32b_n32_k64(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x64xui8, #tc.layout<mn, swizzle = 32b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<32x64xui8, #tc.layout<mn, swizzle = 32b, offset = 8192>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x32xi32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 256, sbo = 1024, base_offset = 0, swizzle = 32b, value = 0xc000404000100000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x1000, lbo = 256, sbo = 1024, base_offset = 0, swizzle = 32b, value = 0xc000404000100100>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x2000, lbo = 256, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401000100200>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x2400, lbo = 256, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401000100240>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = i8, a = u8, b = u8, d = s32, m = 128, n = 32, a_major = mn, b_major = mn, value = 0x08098020>} :
// -----
// B pinned at 34816
func.func @sm100_u8_mn_32b_n64_k128_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x128xui8, #tc.layout<mn, swizzle = 32b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<64x128xui8, #tc.layout<mn, swizzle = 32b, order = k_first, offset = 34816>>
  %acc = tc.acc_zero : !tc.acc<64x64xi32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x128xui8, #tc.layout<mn, swizzle = 32b, order = k_first>>, !tc.tile<64x128xui8, #tc.layout<mn, swizzle = 32b, order = k_first, offset = 34816>>, !tc.acc<64x64xi32>
  func.return
}
// CHECK-LABEL: func.func @sm100_u8_mn_32b_n64_k128_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x128xui8, #tc.layout<mn, swizzle = 32b, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<64x128xui8, #tc.layout<mn, swizzle = 32b, order = k_first, offset = 34816>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x64xi32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 4096, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401001000000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x400, lbo = 4096, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401001000040>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x800, lbo = 4096, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401001000080>
// CHECK-SAME: , #tc.desc<k = 96, start = 0xc00, lbo = 4096, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc0004010010000c0>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8800, lbo = 4096, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401001000880>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x8c00, lbo = 4096, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc0004010010008c0>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x9000, lbo = 4096, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401001000900>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x9400, lbo = 4096, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000401001000940>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = i8, a = u8, b = u8, d = s32, m = 64, n = 64, a_major = mn, b_major = mn, value = 0x04118020>} :
// -----
func.func @sm100_u8_mn_64b_n64_k32() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x32xui8, #tc.layout<mn, swizzle = 64b>>
  %b = tc.smem_tile : !tc.tile<64x32xui8, #tc.layout<mn, swizzle = 64b>>
  %acc = tc.acc_zero : !tc.acc<128x64xi32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x32xui8, #tc.layout<mn, swizzle = 64b>>, !tc.tile<64x32xui8, #tc.layout<mn, swizzle = 64b>>, !tc.acc<128x64xi32>
  func.return
}
// CHECK-LABEL: func.func @sm100_u8_mn_64b_n64_k32(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x32xui8, #tc.layout<mn, swizzle = 64b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<64x32xui8, #tc.layout<mn, swizzle = 64b, offset = 4096>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x64xi32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 512, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000404000200000>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x1000, lbo = 512, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402000200100>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = i8, a = u8, b = u8, d = s32, m = 128, n = 64, a_major = mn, b_major = mn, value = 0x08118020>} :
// -----
// B pinned at 33792
func.func @sm100_u8_mn_64b_n128_k64_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x64xui8, #tc.layout<mn, swizzle = 64b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<128x64xui8, #tc.layout<mn, swizzle = 64b, order = k_first, offset = 33792>>
  %acc = tc.acc_zero : !tc.acc<64x128xi32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<64x64xui8, #tc.layout<mn, swizzle = 64b, order = k_first>>, !tc.tile<128x64xui8, #tc.layout<mn, swizzle = 64b, order = k_first, offset = 33792>>, !tc.acc<64x128xi32>
  func.return
}
// CHECK-LABEL: func.func @sm100_u8_mn_64b_n128_k64_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x64xui8, #tc.layout<mn, swizzle = 64b, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x64xui8, #tc.layout<mn, swizzle = 64b, order = k_first, offset = 33792>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x128xi32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 4096, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402001000000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x800, lbo = 4096, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402001000080>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8400, lbo = 4096, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000402001000840>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x8c00, lbo = 4096, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x80004020010008c0>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = i8, a = u8, b = u8, d = s32, m = 64, n = 128, a_major = mn, b_major = mn, value = 0x04218020>} :
// -----
func.func @sm100_u8_mn_128b_n128_k32() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x32xui8, #tc.layout<mn, swizzle = 128b>>
  %b = tc.smem_tile : !tc.tile<128x32xui8, #tc.layout<mn, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<128x128xi32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x32xui8, #tc.layout<mn, swizzle = 128b>>, !tc.tile<128x32xui8, #tc.layout<mn, swizzle = 128b>>, !tc.acc<128x128xi32>
  func.return
}
// CHECK-LABEL: func.func @sm100_u8_mn_128b_n128_k32(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x32xui8, #tc.layout<mn, swizzle = 128b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x32xui8, #tc.layout<mn, swizzle = 128b, offset = 4096>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x128xi32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 1024, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000400000>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x1000, lbo = 1024, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000400100>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = i8, a = u8, b = u8, d = s32, m = 128, n = 128, a_major = mn, b_major = mn, value = 0x08218020>} :
// -----
// B pinned at 35840
func.func @sm100_u8_mn_128b_n256_k128_kfirst() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<mn, swizzle = 128b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<256x128xui8, #tc.layout<mn, swizzle = 128b, order = k_first, offset = 35840>>
  %acc = tc.acc_zero : !tc.acc<128x256xi32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x128xui8, #tc.layout<mn, swizzle = 128b, order = k_first>>, !tc.tile<256x128xui8, #tc.layout<mn, swizzle = 128b, order = k_first, offset = 35840>>, !tc.acc<128x256xi32>
  func.return
}
// CHECK-LABEL: func.func @sm100_u8_mn_128b_n256_k128_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<mn, swizzle = 128b, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<256x128xui8, #tc.layout<mn, swizzle = 128b, order = k_first, offset = 35840>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x256xi32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16384, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404004000000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x1000, lbo = 16384, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404004000100>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x2000, lbo = 16384, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404004000200>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x3000, lbo = 16384, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404004000300>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8c00, lbo = 16384, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x40004040040008c0>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x9c00, lbo = 16384, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x40004040040009c0>
// CHECK-SAME: , #tc.desc<k = 64, start = 0xac00, lbo = 16384, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404004000ac0>
// CHECK-SAME: , #tc.desc<k = 96, start = 0xbc00, lbo = 16384, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404004000bc0>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = i8, a = u8, b = u8, d = s32, m = 128, n = 256, a_major = mn, b_major = mn, value = 0x08418020>} :
// -----
// A MN-major, B K-major
func.func @sm100_u8_Amn_Bk_128b() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<mn, swizzle = 128b>>
  %b = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<k, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<128x128xi32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x128xui8, #tc.layout<mn, swizzle = 128b>>, !tc.tile<128x128xui8, #tc.layout<k, swizzle = 128b>>, !tc.acc<128x128xi32>
  func.return
}
// CHECK-LABEL: func.func @sm100_u8_Amn_Bk_128b(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<mn, swizzle = 128b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<k, swizzle = 128b, offset = 16384>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x128xi32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 1024, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000400000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x1000, lbo = 1024, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000400100>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x2000, lbo = 1024, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000400200>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x3000, lbo = 1024, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000400300>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x4000, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010400>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x4020, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010402>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x4040, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010404>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x4060, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010406>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = i8, a = u8, b = u8, d = s32, m = 128, n = 128, a_major = mn, b_major = k, value = 0x08208020>} :
// -----
// A K-major, B MN-major
func.func @sm100_u8_Ak_Bmn_128b() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<k, swizzle = 128b>>
  %b = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<mn, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<128x128xi32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x128xui8, #tc.layout<k, swizzle = 128b>>, !tc.tile<128x128xui8, #tc.layout<mn, swizzle = 128b>>, !tc.acc<128x128xi32>
  func.return
}
// CHECK-LABEL: func.func @sm100_u8_Ak_Bmn_128b(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<k, swizzle = 128b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<mn, swizzle = 128b, offset = 16384>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x128xi32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010002>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x40, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010004>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x60, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000010006>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x4000, lbo = 1024, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000400400>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x5000, lbo = 1024, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000400500>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x6000, lbo = 1024, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000400600>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x7000, lbo = 1024, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000404000400700>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = i8, a = u8, b = u8, d = s32, m = 128, n = 128, a_major = k, b_major = mn, value = 0x08210020>} :
// -----
// A MN-major, B K-major
func.func @sm100_u8_Amn_Bk_none() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<mn, swizzle = none>>
  %b = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<k, swizzle = none>>
  %acc = tc.acc_zero : !tc.acc<128x128xi32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x128xui8, #tc.layout<mn, swizzle = none>>, !tc.tile<128x128xui8, #tc.layout<k, swizzle = none>>, !tc.acc<128x128xi32>
  func.return
}
// CHECK-LABEL: func.func @sm100_u8_Amn_Bk_none(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<mn, swizzle = none, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<k, swizzle = none, offset = 16384>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x128xi32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 1024, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800400000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x1000, lbo = 1024, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800400100>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x2000, lbo = 1024, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800400200>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x3000, lbo = 1024, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800400300>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x4000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800400>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x5000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800500>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x6000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800600>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x7000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800700>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = i8, a = u8, b = u8, d = s32, m = 128, n = 128, a_major = mn, b_major = k, value = 0x08208020>} :
// -----
// A K-major, B MN-major
func.func @sm100_u8_Ak_Bmn_none() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<k, swizzle = none>>
  %b = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<mn, swizzle = none>>
  %acc = tc.acc_zero : !tc.acc<128x128xi32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x128xui8, #tc.layout<k, swizzle = none>>, !tc.tile<128x128xui8, #tc.layout<mn, swizzle = none>>, !tc.acc<128x128xi32>
  func.return
}
// CHECK-LABEL: func.func @sm100_u8_Ak_Bmn_none(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<k, swizzle = none, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<mn, swizzle = none, offset = 16384>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x128xi32>
// CHECK-NEXT: %d = tc.tcgen05_mma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x1000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800100>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x2000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800200>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x3000, lbo = 2048, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800800300>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x4000, lbo = 1024, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800400400>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x5000, lbo = 1024, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800400500>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x6000, lbo = 1024, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800400600>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x7000, lbo = 1024, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000400800400700>
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = i8, a = u8, b = u8, d = s32, m = 128, n = 128, a_major = k, b_major = mn, value = 0x08210020>} :
// -----
// A u8, B s8
func.func @sm100_u8xs8_k_128b() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<k, swizzle = 128b>>
  %b = tc.smem_tile : !tc.tile<64x128xsi8, #tc.layout<k, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<128x64xi32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x128xui8, #tc.layout<k, swizzle = 128b>>, !tc.tile<64x128xsi8, #tc.layout<k, swizzle = 128b>>, !tc.acc<128x64xi32>
  func.return
}
// CHECK-LABEL: func.func @sm100_u8xs8_k_128b(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x128xui8, #tc.layout<k, swizzle = 128b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<64x128xsi8, #tc.layout<k, swizzle = 128b, offset = 16384>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<128x64xi32>
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
// CHECK-SAME: ], tc.idesc = #tc.idesc<kind = i8, a = u8, b = s8, d = s32, m = 128, n = 64, a_major = k, b_major = k, value = 0x08100420>} :
