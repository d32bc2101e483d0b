import { useDispatch } from 'react-redux';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';

/** A dispatch that accepts thunks; features use it without importing the app's store type. */
export const useAppDispatch = useDispatch.withTypes<ThunkDispatch<unknown, unknown, UnknownAction>>();
