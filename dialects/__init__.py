"""lower_tc.dialects"""
