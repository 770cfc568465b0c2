"""Built-in rule families an operator should not have to write (DESIGN.md section 1)."""
