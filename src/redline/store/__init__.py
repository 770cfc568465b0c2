"""What persists: scrubbing, and (later) the decision log and the audit store."""
