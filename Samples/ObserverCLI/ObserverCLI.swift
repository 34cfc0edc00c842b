import BMLTKit
