/*
 * The admin app's words for the pages outside its features' screens: the 404 page, the route error and the
 * redirect from `/`. One file of the admin catalogue (see ./index.ts); its ids start with its name.
 */
export default {
  'misc.notFound.title': 'Page Not Found',
  'misc.notFound.text': 'The page you are looking for does not exist or has been moved.',
  'misc.notFound.home': 'Go Home',
  'misc.notFound.back': 'Go Back',
  'misc.routeError.title': 'Something went wrong',
  'misc.routeError.body': 'This page could not be displayed. Reloading usually fixes it.',
  'misc.routeError.reload': 'Reload',
  'misc.redirect.label': 'Redirecting',
  'misc.redirect.body': 'Redirecting to admin portal...',
} satisfies Record<`misc.${string}`, string>;
