import Testing
@testable import ImageSniffMagic
