// Dialects whose namespaces exist already: one upstream, one of Phobos's.
irdl.dialect @arith {
}
irdl.dialect @lane {
}
