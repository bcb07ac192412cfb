// The staff routes' wire shapes live in the shared contract (packages/protocol), the client's as well.
export { CreateManagerBody, EditManagerBody, EmployeesQuery, MuteBody, OwnPasswordBody, RoleBody, staffRoutes } from '@messenger/protocol';
