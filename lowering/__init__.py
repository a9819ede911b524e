"""lower_tc.lowering"""
