/* The admin app's words for results: one file of the admin catalogue (see ./index.ts); its ids start with its name. */
export default {} satisfies Record<`results.${string}`, string>;
