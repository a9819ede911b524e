"""lower_tc.passes"""
