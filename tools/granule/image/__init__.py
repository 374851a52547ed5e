"""granule.image - what the build packs: the initrd, the USB stick, the console font and the generated tables."""
