// The libmagic cross-check lives here (issue 4).
import CLibMagic
import ImageSniff
