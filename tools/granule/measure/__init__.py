"""granule.measure - tools/measure-paths, tools/profile-path: instruction counts along kernel paths, under -icount."""
