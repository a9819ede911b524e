"""The one exception type of the layout core."""


class LayoutError(ValueError):
    """A layout, descriptor or choice that the hardware cannot express.

    The message says why, in words a kernel engineer can act on; callers add
    the source location.
    """
