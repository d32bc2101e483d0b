/* The admin app's words for assessments: one file of the admin catalogue (see ./index.ts); its ids start with its name. */
export default {} satisfies Record<`assessments.${string}`, string>;
