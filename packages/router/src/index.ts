// Every app imports the router from here, never from react-router (lint refuses it): this module is the shared
// singleton, and webpack tree-shakes react-router inside it (12 KB compressed instead of 51). A new export is
// added here, with the version raised in packages/build-config/webpack.mjs, and the shell deployed with it
// before a remote uses it — as for any export of @messenger/shared.
export {
  BrowserRouter,
  Link,
  NavLink,
  Navigate,
  Outlet,
  Route,
  Routes,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from 'react-router';
