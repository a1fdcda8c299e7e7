/**
 * 1.5 x 2^52: `x + TO_INTEGER - TO_INTEGER` is the whole number nearest x, ties to even, for
 * |x| below EXACT_BELOW (the sum's last bit is then worth 1, so the addition rounds x to a whole
 * number and the subtraction is exact).
 *
 * Hot loops use it to turn prices times 100 into paise where they only test whether a value is a
 * whole number of paise, or where a tie fails the test that follows anyway: a value on the grid is
 * no tie, so they keep exactly what Math.round would. Math.round itself costs more there: V8
 * compiles it to a round-up and a conditional jump on whether that went more than half past, and
 * a product that errs either side of the whole number at random mispredicts that jump about every
 * other call (on this machine 4.9 ns a call against 1.2 ns). The form is written out at each use,
 * not called: a call V8 does not inline boxes its argument and its answer.
 */
export const TO_INTEGER = 6_755_399_441_055_744;
/** 2^51. */
export const EXACT_BELOW = 2_251_799_813_685_248;
