// GENERATED FILE -- do not edit. Regenerate with:
//   .venv/bin/python filecheck/gen_descriptor_pins.py
// Pinned descriptors for e4m3 on sm_90a, tc.wgmma (M = 64): 9 kernels, 54 #tc.desc values.
// Every value was checked by the generator against lower_tc.layout.emulate_reads
// (what the tensor core reads) == TileLayout.addresses (where the data is).
// RUN: lower-tc %s --split-input-file -p tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors -t mlir | filecheck %s

func.func @sm90_e4m3_k_none_n24_k32() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x32xf8E4M3FN, #tc.layout<k, swizzle = none>>
  %b = tc.smem_tile : !tc.tile<24x32xf8E4M3FN, #tc.layout<k, swizzle = none>>
  %acc = tc.acc_zero : !tc.acc<64x24xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x32xf8E4M3FN, #tc.layout<k, swizzle = none>>, !tc.tile<24x32xf8E4M3FN, #tc.layout<k, swizzle = none>>, !tc.acc<64x24xf32>
  func.return
}
// CHECK-LABEL: func.func @sm90_e4m3_k_none_n24_k32(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x32xf8E4M3FN, #tc.layout<k, swizzle = none, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<24x32xf8E4M3FN, #tc.layout<k, swizzle = none, offset = 2048>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x24xf32>
// CHECK-NEXT: %d = tc.wgmma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 1024, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000000800400000>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x800, lbo = 384, sbo = 128, base_offset = 0, swizzle = none, value = 0x0000000800180080>
// CHECK-SAME: ]} :
// -----
// B pinned at 32816
func.func @sm90_e4m3_k_none_n128_k128_kfirst() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = none, order = k_first>>
  %b = tc.smem_tile : !tc.tile<128x128xf8E4M3FN, #tc.layout<k, swizzle = none, order = k_first, offset = 32816>>
  %acc = tc.acc_zero : !tc.acc<64x128xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = none, order = k_first>>, !tc.tile<128x128xf8E4M3FN, #tc.layout<k, swizzle = none, order = k_first, offset = 32816>>, !tc.acc<64x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm90_e4m3_k_none_n128_k128_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = none, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x128xf8E4M3FN, #tc.layout<k, swizzle = none, order = k_first, offset = 32816>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x128xf32>
// CHECK-NEXT: %d = tc.wgmma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000004000080000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x100, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000004000080010>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x200, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000004000080020>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x300, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000004000080030>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8030, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000004000080803>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x8130, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000004000080813>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x8230, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000004000080823>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x8330, lbo = 128, sbo = 1024, base_offset = 0, swizzle = none, value = 0x0000004000080833>
// CHECK-SAME: ]} :
// -----
func.func @sm90_e4m3_k_32b_n24_k32() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x32xf8E4M3FN, #tc.layout<k, swizzle = 32b>>
  %b = tc.smem_tile : !tc.tile<24x32xf8E4M3FN, #tc.layout<k, swizzle = 32b>>
  %acc = tc.acc_zero : !tc.acc<64x24xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x32xf8E4M3FN, #tc.layout<k, swizzle = 32b>>, !tc.tile<24x32xf8E4M3FN, #tc.layout<k, swizzle = 32b>>, !tc.acc<64x24xf32>
  func.return
}
// CHECK-LABEL: func.func @sm90_e4m3_k_32b_n24_k32(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x32xf8E4M3FN, #tc.layout<k, swizzle = 32b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<24x32xf8E4M3FN, #tc.layout<k, swizzle = 32b, offset = 2048>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x24xf32>
// CHECK-NEXT: %d = tc.wgmma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000001000010000>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x800, lbo = 16, sbo = 256, base_offset = 0, swizzle = 32b, value = 0xc000001000010080>
// CHECK-SAME: ]} :
// -----
// B pinned at 32896 = 32 KiB + 128 (off the swizzle pattern boundary)
func.func @sm90_e4m3_k_32b_n128_k96_kfirst() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x96xf8E4M3FN, #tc.layout<k, swizzle = 32b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<128x96xf8E4M3FN, #tc.layout<k, swizzle = 32b, order = k_first, offset = 32896>>
  %acc = tc.acc_zero : !tc.acc<64x128xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x96xf8E4M3FN, #tc.layout<k, swizzle = 32b, order = k_first>>, !tc.tile<128x96xf8E4M3FN, #tc.layout<k, swizzle = 32b, order = k_first, offset = 32896>>, !tc.acc<64x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm90_e4m3_k_32b_n128_k96_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x96xf8E4M3FN, #tc.layout<k, swizzle = 32b, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x96xf8E4M3FN, #tc.layout<k, swizzle = 32b, order = k_first, offset = 32896>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x128xf32>
// CHECK-NEXT: %d = tc.wgmma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000003000010000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x100, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000003000010010>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x200, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000003000010020>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8080, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000003000010808>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x8180, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000003000010818>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x8280, lbo = 16, sbo = 768, base_offset = 0, swizzle = 32b, value = 0xc000003000010828>
// CHECK-SAME: ]} :
// -----
func.func @sm90_e4m3_k_64b_n24_k64() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = 64b>>
  %b = tc.smem_tile : !tc.tile<24x64xf8E4M3FN, #tc.layout<k, swizzle = 64b>>
  %acc = tc.acc_zero : !tc.acc<64x24xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = 64b>>, !tc.tile<24x64xf8E4M3FN, #tc.layout<k, swizzle = 64b>>, !tc.acc<64x24xf32>
  func.return
}
// CHECK-LABEL: func.func @sm90_e4m3_k_64b_n24_k64(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = 64b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<24x64xf8E4M3FN, #tc.layout<k, swizzle = 64b, offset = 4096>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x24xf32>
// CHECK-NEXT: %d = tc.wgmma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000002000010000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x20, lbo = 16, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000002000010002>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x1000, lbo = 16, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000002000010100>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x1020, lbo = 16, sbo = 512, base_offset = 0, swizzle = 64b, value = 0x8000002000010102>
// CHECK-SAME: ]} :
// -----
// B pinned at 33408 = 32 KiB + 640 (off the swizzle pattern boundary)
func.func @sm90_e4m3_k_64b_n128_k128_kfirst() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = 64b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<128x128xf8E4M3FN, #tc.layout<k, swizzle = 64b, order = k_first, offset = 33408>>
  %acc = tc.acc_zero : !tc.acc<64x128xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = 64b, order = k_first>>, !tc.tile<128x128xf8E4M3FN, #tc.layout<k, swizzle = 64b, order = k_first, offset = 33408>>, !tc.acc<64x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm90_e4m3_k_64b_n128_k128_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = 64b, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x128xf8E4M3FN, #tc.layout<k, swizzle = 64b, order = k_first, offset = 33408>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x128xf32>
// CHECK-NEXT: %d = tc.wgmma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000004000010000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000004000010002>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x200, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000004000010020>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x220, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000004000010022>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8280, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000004000010828>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x82a0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x800000400001082a>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x8480, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x8000004000010848>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x84a0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 64b, value = 0x800000400001084a>
// CHECK-SAME: ]} :
// -----
func.func @sm90_e4m3_k_128b_n24_k128() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = 128b>>
  %b = tc.smem_tile : !tc.tile<24x128xf8E4M3FN, #tc.layout<k, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<64x24xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = 128b>>, !tc.tile<24x128xf8E4M3FN, #tc.layout<k, swizzle = 128b>>, !tc.acc<64x24xf32>
  func.return
}
// CHECK-LABEL: func.func @sm90_e4m3_k_128b_n24_k128(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = 128b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<24x128xf8E4M3FN, #tc.layout<k, swizzle = 128b, offset = 8192>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x24xf32>
// CHECK-NEXT: %d = tc.wgmma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010002>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x40, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010004>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x60, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010006>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x2000, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010200>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x2020, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010202>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x2040, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010204>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x2060, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010206>
// CHECK-SAME: ]} :
// -----
// B pinned at 33664 = 32 KiB + 896 (off the swizzle pattern boundary)
func.func @sm90_e4m3_k_128b_n128_k128_kfirst() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = 128b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<128x128xf8E4M3FN, #tc.layout<k, swizzle = 128b, order = k_first, offset = 33664>>
  %acc = tc.acc_zero : !tc.acc<64x128xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = 128b, order = k_first>>, !tc.tile<128x128xf8E4M3FN, #tc.layout<k, swizzle = 128b, order = k_first, offset = 33664>>, !tc.acc<64x128xf32>
  func.return
}
// CHECK-LABEL: func.func @sm90_e4m3_k_128b_n128_k128_kfirst(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = 128b, order = k_first, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x128xf8E4M3FN, #tc.layout<k, swizzle = 128b, order = k_first, offset = 33664>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x128xf32>
// CHECK-NEXT: %d = tc.wgmma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010002>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x40, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010004>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x60, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010006>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x8380, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010838>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x83a0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x400000400001083a>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x83c0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x400000400001083c>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x83e0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x400000400001083e>
// CHECK-SAME: ]} :
// -----
// A e4m3, B e5m2
func.func @sm90_e4m3xe5m2_k_128b() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = 128b>>
  %b = tc.smem_tile : !tc.tile<64x128xf8E5M2, #tc.layout<k, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = 128b>>, !tc.tile<64x128xf8E5M2, #tc.layout<k, swizzle = 128b>>, !tc.acc<64x64xf32>
  func.return
}
// CHECK-LABEL: func.func @sm90_e4m3xe5m2_k_128b(
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = 128b, offset = 0>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<64x128xf8E5M2, #tc.layout<k, swizzle = 128b, offset = 8192>>
// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<64x64xf32>
// CHECK-NEXT: %d = tc.wgmma %a, %b, %acc {tc.a_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010000>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010002>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x40, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010004>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x60, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010006>
// CHECK-SAME: ], tc.b_descs = [
// CHECK-SAME: #tc.desc<k = 0, start = 0x2000, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010200>
// CHECK-SAME: , #tc.desc<k = 32, start = 0x2020, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010202>
// CHECK-SAME: , #tc.desc<k = 64, start = 0x2040, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010204>
// CHECK-SAME: , #tc.desc<k = 96, start = 0x2060, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010206>
// CHECK-SAME: ]} :
