"""The Axis & Allies family: Revised with LHTR 1.3, the Historical Edition variant, Sitrep."""
