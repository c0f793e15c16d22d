// nothing here
// RUN: nothing
   // indented comment
