"""Context-aware review: principal facts, the explicit ask and the one-way license."""
