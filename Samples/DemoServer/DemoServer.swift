// The embedded demo root server (filled in below).
