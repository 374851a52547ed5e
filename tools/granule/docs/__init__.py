"""granule.docs - tools/exercises, tools/debate-figures, tools/start-figure: what they write into docs/."""
