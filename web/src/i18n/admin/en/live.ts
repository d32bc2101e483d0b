/* The admin app's words for live: one file of the admin catalogue (see ./index.ts); its ids start with its name. */
export default {} satisfies Record<`live.${string}`, string>;
